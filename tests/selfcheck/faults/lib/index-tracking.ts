// What the index, set, paging and ordering faults need to know about the exchanges they see: index
// definitions sent through the proxy (a fault lives for one run, so it can remember them), the `paginate`
// forms of a request, and v4 error answers a fault substitutes for a success.
import type { BufferedResponse, FaultHooks, ProxiedRequest } from '../../fault.js';
import { forEachObject, isJsonObject, jsonNumber, stringifyJson, type JsonObject } from '../../json-body.js';
import { topLevelForm, v4Expression, v4Resource, withJsonBody, withStatus } from './rewrites.js';

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

/** A fault's hooks that see every relayed request's index definitions (in `indexes`) before their own request hook. */
export function observingIndexes(build: (indexes: IndexDefinitions) => FaultHooks): FaultHooks {
  const indexes = new IndexDefinitions();
  const hooks = build(indexes);
  return {
    ...hooks,
    request: (request) => {
      indexes.observe(request);
      return hooks.request?.(request);
    },
  };
}

/** Hooks that also keep the documents the answers show, seen before `build`'s JSON hook (if any) edits an answer. */
export function observingDocuments(build: (indexes: IndexDefinitions, documents: DocumentLedger) => FaultHooks): FaultHooks {
  return observingIndexes((indexes) => {
    const documents = new DocumentLedger();
    const hooks = build(indexes, documents);
    return {
      ...hooks,
      json: (body, ctx) => {
        documents.observe(body, ctx.status, ctx.original);
        return hooks.json?.(body, ctx);
      },
    };
  });
}

/** A term or value `field` path: object keys and array positions. */
export type FieldPath = (string | number)[];

/** An index as its `create_index` defined it. */
export interface SeenIndex {
  name: string;
  /** The `reverse` flag of each covered value, in `values` order (empty: entries are refs). */
  reverse: boolean[];
  /** `partitions` when given as a number. */
  partitions?: number;
  /** `source` exactly as the request sent it. */
  source: unknown;
  /** The collection a `source` of the form `{"collection": name}` names. */
  sourceCollection?: string;
  /** The path of each term, or undefined for a term that is a binding. */
  termPaths: (FieldPath | undefined)[];
  /** Whether each term is a binding (its path known only for a binding that selects a path of the document). */
  termIsBinding: boolean[];
  /** The path of each covered value, as `termPaths`. */
  valuePaths: (FieldPath | undefined)[];
  unique: boolean;
}

/** The object a `{"object": …}` wrapper holds, or the value itself when it is a plain object. */
export function unwrapObject(value: unknown): JsonObject | undefined {
  if (!isJsonObject(value)) return undefined;
  return isJsonObject(value.object) && Object.keys(value).length === 1 ? value.object : value;
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

function fieldPath(field: unknown): FieldPath | undefined {
  if (typeof field === 'string') return [field];
  return Array.isArray(field)
    ? field.map((step): string | number => (typeof step === 'string' ? step : (jsonNumber(step) ?? Number.NaN)))
    : undefined;
}

/** The name in `{"collection": name}`, or undefined. */
function collectionName(value: unknown): string | undefined {
  return isJsonObject(value) && typeof value.collection === 'string' ? value.collection : undefined;
}

/**
 * The document path a term or value column reads: its `field`, or for a binding of the lone source object the
 * path of a body `{"select": path, "from": {"var": parameter}}` (the one binding shape read without evaluating).
 */
function columnPath(column: JsonObject | undefined, lone: JsonObject | undefined): FieldPath | undefined {
  if (column === undefined) return undefined;
  if (typeof column.binding !== 'string') return fieldPath(column.field);
  const binding = unwrapObject(lone?.fields)?.[column.binding];
  const lambda = isJsonObject(binding) && isJsonObject(binding.query) ? binding.query : undefined;
  const body = lambda?.expr;
  const selectsParameter =
    isJsonObject(body) &&
    isJsonObject(body.from) &&
    body.from.var === lambda!.lambda &&
    typeof lambda!.lambda === 'string' &&
    !('default' in body);
  return selectsParameter ? fieldPath(body.select) : undefined;
}

/** Index definitions seen in requests of one run, by name (a later definition of a name replaces the earlier). */
export class IndexDefinitions {
  private readonly byName = new Map<string, SeenIndex>();

  /** Records every `create_index` of a request. */
  observe(request: ProxiedRequest): void {
    for (const params of createIndexParams(v4Expression(request))) {
      if (typeof params.name !== 'string') continue;
      const values = Array.isArray(params.values) ? params.values : [];
      const reverse = values.map((item) => unwrapObject(item)?.reverse === true);
      const partitions = jsonNumber(params.partitions);
      // A single source object (with `collection` and `fields`) may come without the array around it.
      const sources = Array.isArray(params.source) ? params.source.map(unwrapObject) : [unwrapObject(params.source)];
      const lone = sources.length === 1 ? sources[0] : undefined;
      const termPaths = (Array.isArray(params.terms) ? params.terms : []).map((item) => columnPath(unwrapObject(item), lone));
      const termIsBinding = (Array.isArray(params.terms) ? params.terms : []).map(
        (item) => typeof unwrapObject(item)?.binding === 'string',
      );
      const valuePaths = values.map((item) => columnPath(unwrapObject(item), lone));
      const sourceCollection = collectionName(params.source) ?? collectionName(lone?.collection);
      this.byName.set(params.name, {
        name: params.name,
        reverse,
        source: params.source,
        termPaths,
        termIsBinding,
        valuePaths,
        unique: params.unique === true,
        ...(partitions === undefined ? {} : { partitions }),
        ...(sourceCollection === undefined ? {} : { sourceCollection }),
      });
    }
  }

  get(name: string): SeenIndex | undefined {
    return this.byName.get(name);
  }

  all(): SeenIndex[] {
    return [...this.byName.values()];
  }

  /** The index the request's single `paginate` reads through a plain Match, when it was seen. */
  pagedIndex(request: ProxiedRequest): { index: SeenIndex; form: JsonObject } | undefined {
    const forms = paginateForms(v4Expression(request));
    if (forms.length !== 1) return undefined;
    const name = matchedIndexName(forms[0]!);
    const index = name === undefined ? undefined : this.byName.get(name);
    return index === undefined ? undefined : { index, form: forms[0]! };
  }
}

/** A document as an answer showed it. */
export interface SeenDocument {
  ref: JsonObject;
  collection: string;
  record: JsonObject;
  deleted: boolean;
}

/** The user collection a long-form document ref belongs to, if it is one. */
function userCollectionOf(ref: unknown): string | undefined {
  const body = isJsonObject(ref) && isJsonObject(ref['@ref']) ? ref['@ref'] : undefined;
  const parent = body && isJsonObject(body.collection) && isJsonObject(body.collection['@ref']) ? body.collection['@ref'] : undefined;
  const grand =
    parent && isJsonObject(parent.collection) && isJsonObject(parent.collection['@ref']) ? parent.collection['@ref'] : undefined;
  return grand?.id === 'collections' && typeof parent!.id === 'string' ? parent!.id : undefined;
}

/** Documents seen in answers of one run (created, read, updated or deleted), by ref. */
export class DocumentLedger {
  private readonly byRef = new Map<string, SeenDocument>();

  /** Records every document of a successful answer; the answer to a top-level Delete marks it deleted. */
  observe(body: unknown, status: number, request: ProxiedRequest): void {
    if (status >= 300 || !isJsonObject(body)) return;
    const deleting = isJsonObject(v4Expression(request)) && 'delete' in (v4Expression(request) as JsonObject);
    forEachObject(body.resource, (object) => {
      const collection = 'ts' in object && isJsonObject(object.data) ? userCollectionOf(object.ref) : undefined;
      if (collection === undefined) return;
      const ref = object.ref as JsonObject;
      this.byRef.set(stringifyJson(ref), { ref, collection, record: object, deleted: deleting });
    });
  }

  live(collection: string): SeenDocument[] {
    return [...this.byRef.values()].filter((doc) => doc.collection === collection && !doc.deleted);
  }

  deleted(collection: string): SeenDocument[] {
    return [...this.byRef.values()].filter((doc) => doc.collection === collection && doc.deleted);
  }

  get(ref: unknown): SeenDocument | undefined {
    return this.byRef.get(stringifyJson(ref));
  }
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
