// What the index, set, paging and ordering faults read of the exchanges they see: the `create_index` params and
// `paginate` forms of a request, pages, and v4 error answers a fault substitutes for a success. Index definitions and
// documents are not modelled here: the faults that need them are failpoints of the reference server.
import type { BufferedResponse, ProxiedRequest } from '../../fault.js';
import { forEachObject, isJsonObject, type JsonObject } from '../../json-body.js';
import { topLevelForm, v4Resource, withJsonBody, withStatus } from './rewrites.js';

/** A page resource: an object with a `data` array. */
export type PageResource = JsonObject & { data: unknown[] };

export function isPage(resource: JsonObject | undefined): resource is PageResource {
  return resource !== undefined && Array.isArray(resource.data);
}

/** The page a successful top-level `paginate` answered, if that is what the body holds. */
export function topLevelPage(body: unknown, ctx: { status: number; original: ProxiedRequest }): PageResource | undefined {
  const resource = v4Resource(body);
  return ctx.status === 200 && topLevelForm(ctx.original) === 'paginate' && isPage(resource) ? resource : undefined;
}

/** The object a `{"object": …}` wrapper holds, or the value itself when it is a plain object. */
export function unwrapObject(value: unknown): JsonObject | undefined {
  if (!isJsonObject(value)) return undefined;
  return isJsonObject(value.object) && Object.keys(value).length === 1 ? value.object : value;
}

/** Whether `holds` of some object of a tree. */
export function someObject(tree: unknown, holds: (object: JsonObject) => boolean): boolean {
  let found = false;
  forEachObject(tree, (object) => {
    found ||= holds(object);
  });
  return found;
}

/** Deletes `keys` from `object`; answers how many it held. */
export function dropKeys(object: JsonObject, keys: string[]): number {
  return keys.filter((key) => key in object && delete object[key]).length;
}

/** The params objects of every `create_index` in an expression. */
export function createIndexParams(expression: unknown): JsonObject[] {
  const found: JsonObject[] = [];
  forEachObject(expression, (object) => {
    const params = 'create_index' in object ? unwrapObject(object.create_index) : undefined;
    if (params) found.push(params);
  });
  return found;
}

/** The name in `{"index": "name"}`, or undefined. */
export function indexName(value: unknown): string | undefined {
  return isJsonObject(value) && Object.keys(value).length === 1 && typeof value.index === 'string' ? value.index : undefined;
}

/** The `paginate` forms of an expression. */
export function paginateForms(expression: unknown): JsonObject[] {
  const forms: JsonObject[] = [];
  forEachObject(expression, (object) => {
    if ('paginate' in object) forms.push(object);
  });
  return forms;
}

/** True when a `paginate` form (or its `cursor` object) carries `which`. */
export function hasCursor(form: JsonObject, which: 'after' | 'before'): boolean {
  return which in form || (isJsonObject(form.cursor) && which in form.cursor);
}

/** The index a `paginate` form reads through a plain `{"match": {"index": name}, …}`, if that is its set. */
export function matchedIndexName(form: JsonObject): string | undefined {
  const set = form.paginate;
  return isJsonObject(set) && 'match' in set ? indexName(set.match) : undefined;
}

/** The response a server answering a v4 error would send instead of `response`. */
export function v4ErrorResponse(
  response: BufferedResponse,
  status: number,
  code: string,
  description: string,
  position: unknown[] = [],
): BufferedResponse {
  return withJsonBody(withStatus(response, status), { errors: [{ position, code, description }] });
}
