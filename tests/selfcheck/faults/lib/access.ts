// Helpers of the access-control faults: secrets, keys, tokens and roles the run has seen, and answers refusing access.
import type { BufferedResponse, FaultHooks, ProxiedRequest } from '../../fault.js';
import { forEachObject, isJsonObject, jsonInt, type JsonObject } from '../../json-body.js';
import { KeyLedger, TokenLedger, requestSecret } from './key-ledger.js';
import {
  bodyJson,
  nativeCollectionOf,
  rewriteResponse,
  schemaRefOf,
  topLevelForm,
  v4Errors,
  v4Expression,
  withJsonBody,
  withStatus,
} from './rewrites.js';

/** Passwords found in `credentials: {password}` objects of a v4 expression (plain or `{"object": …}` wrapped). */
export function passwordsIn(expression: unknown): string[] {
  const found: string[] = [];
  forEachObject(expression, (object) => {
    const credentials =
      isJsonObject(object.credentials) && isJsonObject(object.credentials.object) ? object.credentials.object : object.credentials;
    if (isJsonObject(credentials) && typeof credentials.password === 'string') found.push(credentials.password);
  });
  return found;
}

export function isUserDocument(record: JsonObject): boolean {
  return nativeCollectionOf(record) === undefined && 'data' in record;
}

/** The `{"object": …}` payload of a params-like argument, or the argument itself. */
export function objectPayload(value: unknown): JsonObject | undefined {
  if (isJsonObject(value) && isJsonObject(value.object)) return value.object;
  return isJsonObject(value) ? value : undefined;
}

/** Whether a v4 error body is `validation failed` only, with failures that all match. */
export function refusedOnlyFor(body: unknown, matches: (failure: JsonObject) => boolean): boolean {
  const failures = v4Errors(body).flatMap((error) =>
    error.code === 'validation failed' && Array.isArray(error.failures) ? error.failures : [undefined],
  );
  return failures.length > 0 && failures.every((failure) => isJsonObject(failure) && matches(failure));
}

/** A response hook answering a top-level `create_role` that `refused` as created: 201 with a record of it (nothing is stored). */
export function roleCreatedAnyway(refused: (body: unknown) => boolean): FaultHooks['response'] {
  return rewriteResponse(
    (res, ctx) => res.status === 400 && topLevelForm(ctx.original) === 'create_role' && refused(bodyJson(res)),
    (res, ctx) => {
      const name = objectPayload((v4Expression(ctx.original) as JsonObject).create_role)?.name;
      const ref = { '@ref': { id: name, collection: { '@ref': { id: 'roles' } } } };
      return withStatus(withJsonBody(res, { resource: { ref, ts: jsonInt(Date.now() * 1000), name } }), 201);
    },
  );
}

/** The collection of a document ref, in wire form (`{"@ref": {id, collection}}`) or request form (`{"ref": …, "id": …}`). */
function refCollection(value: unknown): string | undefined {
  if (!isJsonObject(value)) return undefined;
  if (isJsonObject(value['@ref'])) {
    const parent = value['@ref'].collection ?? value['@ref'].class;
    return isJsonObject(parent) && isJsonObject(parent['@ref']) && typeof parent['@ref'].id === 'string' ? parent['@ref'].id : undefined;
  }
  if ('id' in value) return schemaRefOf(value.ref)?.name;
  return undefined;
}

/** `collection/id` of a document ref in either form, so refs from answers and from requests compare equal. */
export function documentRefKey(value: unknown): string | undefined {
  const collection = refCollection(value);
  if (collection === undefined || !isJsonObject(value)) return undefined;
  const id = isJsonObject(value['@ref']) ? value['@ref'].id : value.id;
  return typeof id === 'string' ? `${collection}/${id}` : undefined;
}

function errorAnswer(res: BufferedResponse, status: number, code: string, description: string): BufferedResponse {
  return withStatus(withJsonBody(res, { errors: [{ position: [], code, description }] }), status);
}

export const permissionDenied = (res: BufferedResponse) =>
  errorAnswer(res, 403, 'permission denied', 'Insufficient privileges to perform the action.');

export const unauthorized = (res: BufferedResponse) =>
  withStatus(withJsonBody(res, { errors: [{ code: 'unauthorized', description: 'Unauthorized' }] }), 401);

/** Remembers the names of the roles a run asks for (from `create_role` requests), in order. */
export class RoleLedger {
  readonly roles: { name: string }[] = [];

  learnFrom(expression: unknown): void {
    forEachObject(expression, (object) => {
      const name = 'create_role' in object ? objectPayload(object.create_role)?.name : undefined;
      if (typeof name === 'string') this.roles.push({ name });
    });
  }
}

export interface Ledgers {
  keys: KeyLedger;
  tokens: TokenLedger;
  roles: RoleLedger;
}

/** A fault whose hooks see every key, token and role the run created (learned before the hooks run). */
export function withLedgers(build: (ledgers: Ledgers) => FaultHooks): () => FaultHooks {
  return () => {
    const ledgers: Ledgers = { keys: new KeyLedger(), tokens: new TokenLedger(), roles: new RoleLedger() };
    const hooks = build(ledgers);
    return {
      ...hooks,
      request: (req) => {
        ledgers.roles.learnFrom(v4Expression(req));
        return hooks.request?.(req);
      },
      json: (body, ctx) => {
        const secret = requestSecret(ctx.original);
        ledgers.keys.learnFrom(body, secret);
        ledgers.tokens.learnFrom(body, secret);
        return hooks.json?.(body, ctx);
      },
    };
  };
}

/** The answer of a top-level form, for a JSON hook: `form` is the request's top-level form and the status is 200/201. */
export function answersForm(form: string, status: number, ctx: { original: ProxiedRequest; status: number }): boolean {
  return ctx.status === status && topLevelForm(ctx.original) === form;
}

/** The key a request authenticates with, if its secret is a key the run created. */
export const keyOf = (ledgers: Ledgers, request: ProxiedRequest) => ledgers.keys.bySecret(requestSecret(request) ?? '');
