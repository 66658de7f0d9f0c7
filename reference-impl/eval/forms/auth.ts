/**
 * Built-in identity: Login, Logout, Identify, Identity/CurrentIdentity, HasIdentity/HasCurrentIdentity,
 * CurrentToken/HasCurrentToken, and Create on the `tokens` native collection.
 *
 * A token record stores `instance` (the identity document), optional `data` and `ttl`, and `hashed_secret`;
 * the secret itself is rendered once, in the answer that created the token, and kept only as a digest.
 */
import { createHash } from 'node:crypto';
import type { Expr } from '../../codec/v4-ast.js';
import { QueryError, errors, type Position } from '../../errors/query-error.js';
import { failpoint, failpointMemory } from '../../failpoints.js';
import { userCollectionName, type DatabaseId } from '../../store/store.js';
import { Ref, SetRef, Time, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { namedInSomeRole } from '../access.js';
import { expectBoolean, expectObject, typeName } from '../arguments.js';
import type { EvalContext } from '../context.js';
import { locateDocument, renderDocument, writeDocument, type DocumentLocation } from '../documents.js';
import { userKey } from '../../auth/identity.js';
import type { FormDefinition } from '../form-registry.js';
import type { NativeCollectionHandler, NativeCollectionHandlers } from '../native-collections.js';
import { throwIfFailures, typeFailure } from '../record-fields.js';

const TOKENS_REF = new Ref('tokens');

export function authenticationFailed(position: Position): QueryError {
  return new QueryError('authentication failed', 'The document was not found or provided password was incorrect.', position);
}

// Implements: AUTH-IDENTITY-003
export function missingIdentity(position: Position): QueryError {
  return new QueryError('missing identity', 'Authentication does not contain an identity', position);
}

/** The identity document's ref as seen from its own database (a scoped ref loses its database part). */
function identityRef(location: DocumentLocation): Ref {
  const name = userCollectionName(location.collection)!;
  return new Ref(location.id, new Ref(name, new Ref('collections')));
}

// Implements: AUTH-LOGIN-003, AUTH-LOGIN-005, AUTH-LOGIN-006
/** The user document a Login/Identify target designates, or undefined when there is none. */
async function userLocation(ctx: EvalContext, target: Value, position: Position): Promise<DocumentLocation | undefined> {
  let ref: Ref | undefined;
  if (target instanceof Ref) ref = target;
  else if (target instanceof SetRef) ref = await firstRefOf(ctx, target, position);
  else throw errors.invalidArgument(`Ref or Set expected, ${typeName(target)} provided.`, position);
  if (ref === undefined || ref.collection === undefined) return undefined;
  let location: DocumentLocation;
  try {
    location = locateDocument(ctx, ref, position);
  } catch (error) {
    // A ref into a collection that does not exist finds no document, like any other miss.
    if (error instanceof QueryError && error.code === 'invalid ref') return undefined;
    throw error;
  }
  if (userCollectionName(location.collection) === undefined) return undefined;
  return ctx.txn.get(location.database, location.collection, location.id) ? location : undefined;
}

// Implements: AUTH-LOGIN-003, AUTH-LOGIN-006, AUTH-LOGIN-011
/**
 * The first document of a set, read through Paginate so the caller's rights on the index apply (a client
 * key may use an index with public read permission).
 */
async function firstRefOf(ctx: EvalContext, set: SetRef, position: Position): Promise<Ref | undefined> {
  const literal: Expr = { kind: 'literal', value: set, position, raw: null };
  const size: Expr = { kind: 'literal', value: 1n, position, raw: 1 };
  const page = await ctx.eval({
    kind: 'object',
    fields: new Map([
      ['paginate', literal],
      ['size', size],
    ]),
    position,
    raw: null,
  });
  const first = isObjectValue(page) && Array.isArray(page.data) ? page.data[0] : undefined;
  if (first instanceof Ref) return first;
  return Array.isArray(first) ? first.find((v): v is Ref => v instanceof Ref) : undefined;
}

/** BCrypt hash compared against when there is no document, so a miss costs what a wrong password costs. */
let missHash: Promise<string> | undefined;

// Implements: AUTH-IDENTIFY-004, AUTH-LOGIN-004, AUTH-LOGIN-005, AUTH-LOGIN-007
async function passwordMatches(ctx: EvalContext, location: DocumentLocation | undefined, password: string): Promise<boolean> {
  const hash =
    location === undefined ? undefined : ctx.txn.get(location.database, location.collection, location.id)?.hidden.credentialsHash;
  if (hash === undefined) {
    missHash ??= ctx.services.hashPassword('\u0000no document\u0000');
    await ctx.services.verifyPassword(password, await missHash);
    return false;
  }
  return ctx.services.verifyPassword(password, hash);
}

interface TokenFields {
  data?: ObjectValue;
  ttl?: Time;
}

function tokenFieldFailures(params: ObjectValue): { fields: TokenFields; failures: ReturnType<typeof typeFailure>[] } {
  const failures: ReturnType<typeof typeFailure>[] = [];
  const fields: TokenFields = {};
  const data = params.data;
  const ttl = failpoint('AUTH-TOKEN-TTL-IGNORED') ? undefined : params.ttl;
  if (data !== undefined && data !== null) {
    if (isObjectValue(data)) fields.data = data;
    else failures.push(typeFailure('data', 'Object', data));
  }
  if (ttl !== undefined && ttl !== null) {
    if (ttl instanceof Time) fields.ttl = ttl;
    else failures.push(typeFailure('ttl', 'Time', ttl));
  }
  return { fields, failures };
}

// Implements: AUTH-LOGIN-002, AUTH-LOGIN-008, AUTH-LOGIN-009, AUTH-TOKEN-001, AUTH-TOKEN-002, AUTH-TOKEN-003
/** Writes a new token record for `instance` in `database` and renders it with its secret (the only time). */
async function issueToken(
  ctx: EvalContext,
  database: DatabaseId,
  instance: Ref,
  extra: TokenFields,
  position: Position,
  checkAccess: boolean,
): Promise<ObjectValue> {
  const id = ctx.txn.newDocumentId();
  const issued = await ctx.services.issueSecret('token', database, id);
  if (failpoint('AUTH-TOKEN-GET-SHOWS-SECRET')) failpointMemory('AUTH-TOKEN-GET-SHOWS-SECRET').set(id, issued.secret);
  const hashed = failpoint('AUTH-TOKEN-SECRET-SHA256') ? createHash('sha256').update(issued.secret).digest('hex') : issued.hashedSecret;
  const fields: ObjectValue = { instance, ...extra, hashed_secret: hashed };
  const location: DocumentLocation = { database, collection: 'tokens', id, ref: new Ref(id, TOKENS_REF) };
  const version = checkAccess
    ? await writeDocument(ctx, location, 'create', fields, { secretDigest: issued.digest }, position)
    : ctx.txn.write(database, 'tokens', id, 'create', fields, { secretDigest: issued.digest });
  const { hashed_secret: _hashed, ...shown } = renderDocument(location.ref, version);
  const record: ObjectValue = { ...shown, secret: issued.secret };
  ctx.created.add(record);
  return record;
}

// Implements: AUTH-CLIENT-005, AUTH-LOGIN-001, AUTH-LOGIN-002, AUTH-LOGIN-004, AUTH-LOGIN-005, AUTH-LOGIN-006
// Implements: AUTH-LOGIN-007, AUTH-LOGIN-010, AUTH-PASSWORD-001
const login: FormDefinition = {
  required: ['login'],
  optional: ['params'],
  async evaluate(ctx, args) {
    const position = args.node.position;
    const target = await args.value(ctx, 'login');
    const params = expectObject(args.has('params') ? await args.value(ctx, 'params') : {}, args.position('params'));
    const password = params.password;
    const { fields, failures } = tokenFieldFailures(params);
    if (password !== undefined && password !== null && typeof password !== 'string')
      failures.unshift(typeFailure('password', 'String', password));
    throwIfFailures(failures, position);
    // No password cannot match any credentials: the login fails as a wrong one does (AUTH-LOGIN-013).
    if (password === undefined || password === null) throw authenticationFailed(position);
    const location = await userLocation(ctx, target, args.position('login'));
    if (!(await passwordMatches(ctx, location, password as string)) || location === undefined) {
      const stored = location && ctx.txn.get(location.database, location.collection, location.id);
      if (stored && stored.hidden.credentialsHash === undefined && failpoint('AUTH-LOGIN-NO-CREDENTIALS-CODE'))
        throw errors.invalidArgument('The document has no credentials.', position);
      const failure = authenticationFailed(position);
      if (location && target instanceof Ref && failpoint('AUTH-LOGIN-TOKEN-BEFORE-CHECK')) {
        await issueToken(ctx, location.database, identityRef(location), {}, position, false);
        ctx.txn.failAfterCommit = failure;
      }
      throw failure;
    }
    if (failpoint('AUTH-LOGIN-ENDS-OLDER-TOKENS')) endTokens(ctx, location.database, (token) => token.equals(identityRef(location)));
    // A server that hands each user its first token again.
    const firstTokens = failpoint('AUTH-LOGIN-REUSES-TOKEN') ? failpointMemory<ObjectValue>('AUTH-LOGIN-REUSES-TOKEN') : undefined;
    const user = userKey(location.database, identityRef(location));
    const first = firstTokens?.get(user);
    if (first !== undefined) {
      ctx.created.add(first);
      return first;
    }
    // Login needs no privilege on the user document: knowing the password is the authorisation.
    const token = await issueToken(ctx, location.database, identityRef(location), fields, position, false);
    firstTokens?.set(user, token);
    // A server that asks for a server key only after it wrote the token.
    if (ctx.identity.role === 'client' && failpoint('AUTH-LOGIN-CLIENT-DENIED'))
      ctx.txn.failAfterCommit ??= errors.permissionDenied(position);
    return token;
  },
};

// Implements: AUTH-CLIENT-005, AUTH-IDENTIFY-001, AUTH-IDENTIFY-002, AUTH-IDENTIFY-003, AUTH-IDENTIFY-004
/** Identify takes what Login takes: a ref, or a set whose first document it checks (false when the set is empty). */
const identify: FormDefinition = {
  required: ['identify', 'password'],
  async evaluate(ctx, args) {
    const target = await args.value(ctx, 'identify');
    const password = await args.value(ctx, 'password');
    if (typeof password !== 'string')
      throw errors.invalidArgument(`String expected, ${typeName(password)} provided.`, args.position('password'));
    const location = await userLocation(ctx, target, args.position('identify'));
    const matches = await passwordMatches(ctx, location, password);
    if (ctx.identity.role === 'client' && failpoint('AUTH-IDENTIFY-CLIENT-DENIED')) throw errors.permissionDenied(args.node.position);
    if (matches && location && failpoint('AUTH-IDENTIFY-CREATES-TOKEN'))
      await issueToken(ctx, location.database, identityRef(location), {}, args.node.position, false);
    return matches;
  },
};

// Implements: AUTH-ACCESS-002, AUTH-LOGOUT-001, AUTH-LOGOUT-002, AUTH-LOGOUT-003, AUTH-LOGOUT-004, AUTH-LOGOUT-005
// Implements: AUTH-LOGOUT-006, AUTH-LOGOUT-007, AUTH-LOGOUT-008
const logout: FormDefinition = {
  required: ['logout'],
  async evaluate(ctx, args) {
    const given = await args.value(ctx, 'logout');
    // A server that takes any argument by its truthiness (null, 0 and "" are false).
    const coerced = typeof given !== 'boolean' && failpoint('AUTH-LOGOUT-ARG-COERCED');
    const all = coerced ? !(given === null || given === 0n || given === '') : expectBoolean(given, args.position('logout'));
    if (failpoint('AUTH-LOGOUT-KEEPS-TOKEN')) return true;
    const { identity } = ctx;
    noRoleDenies(ctx, 'logout', args.node.position);
    // Only a token's session can end: with a key (or the root secret) the logout fails, which answers false (DEC-031).
    if (identity.kind !== 'token' || identity.record === undefined) {
      if (all && identity.kind === 'key' && failpoint('AUTH-LOGOUT-WITH-KEY-ENDS-TOKENS')) endTokens(ctx, ctx.database, () => true);
      return false;
    }
    const { database, ref } = identity.record;
    const instance = identity.identityDocument;
    const everyone = all && failpoint('AUTH-LOGOUT-ALL-USERS');
    // A server that then refuses every token of theirs, new ones included.
    if (all && instance !== undefined && failpoint('AUTH-LOGOUT-BLOCKS-USER'))
      failpointMemory('AUTH-LOGOUT-BLOCKS-USER').set(userKey(database, instance), true);
    // Logout ends sessions, which needs no privilege: the writes bypass the access policy.
    endTokens(ctx, database, (user, id) => id === ref.id || everyone || (all && instance !== undefined && user.equals(instance)));
    return true;
  },
};

/** Ends the tokens of `database` whose user (`instance`) and id `ends` picks; no privilege needed, as Logout's. */
export function endTokens(ctx: EvalContext, database: DatabaseId, ends: (user: Ref, id: string) => boolean): void {
  for (const [id, version] of ctx.txn.scan(database, 'tokens')) {
    const user = version.fields.instance;
    if (user instanceof Ref && ends(user, id)) ctx.txn.write(database, 'tokens', id, 'delete', {}, version.hidden);
  }
}

/** The failpoints of servers that refuse identity forms to a token whose user collection no role names. */
function noRoleDenies(ctx: EvalContext, key: string, position: Position): void {
  const denies = failpoint('AUTH-NO-ROLE-NO-IDENTITY') || (key === 'identity' && failpoint('AUTH-NO-ROLE-IDENTITY-DENIED'));
  if (denies && ctx.identity.kind === 'token' && !namedInSomeRole(ctx)) throw errors.permissionDenied(position);
}

function currentIdentity(ctx: EvalContext, position: Position): Ref {
  const document = ctx.identity.kind === 'token' ? ctx.identity.identityDocument : undefined;
  if (document === undefined) throw missingIdentity(position);
  return document;
}

// Implements: AUTH-ACCESS-002, AUTH-IDENTITY-001, AUTH-IDENTITY-002
function identityForm(key: string): FormDefinition {
  return {
    required: [key],
    evaluate: async (ctx, args) => {
      const document = currentIdentity(ctx, args.node.position);
      noRoleDenies(ctx, key, args.node.position);
      return key === 'identity' && failpoint('AUTH-IDENTITY-IS-TOKEN') ? (ctx.identity.record?.ref ?? document) : document;
    },
  };
}

// Implements: AUTH-IDENTITY-004
function hasIdentityForm(key: string): FormDefinition {
  return {
    required: [key],
    evaluate: async (ctx, args) => {
      noRoleDenies(ctx, key, args.node.position);
      return ctx.identity.kind === 'token' && ctx.identity.identityDocument !== undefined;
    },
  };
}

export function invalidToken(position: Position): QueryError {
  return new QueryError('invalid token', 'Token metadata is not accessible.', position);
}

// Implements: AUTH-IDENTITY-005, AUTH-IDENTITY-006
/**
 * The calling token's ref, or the calling key's when its record lives in the database the query runs in (AUTH-IDENTITY-006);
 * undefined for a key made in a parent database for this one, and for the root secret, which has no record.
 */
function currentTokenRef(ctx: EvalContext): Ref | undefined {
  const { identity } = ctx;
  const record = identity.record;
  if (record === undefined) return undefined;
  if (identity.kind === 'key' && record.database !== ctx.database && !failpoint('CURRENT-TOKEN-ANY-KEY')) return undefined;
  return record.ref;
}

const currentToken: FormDefinition = {
  required: ['current_token'],
  async evaluate(ctx, args) {
    const ref = currentTokenRef(ctx);
    if (ref === undefined) throw invalidToken(args.node.position);
    noRoleDenies(ctx, 'current_token', args.node.position);
    const { identityDocument } = ctx.identity;
    return identityDocument !== undefined && failpoint('AUTH-CURRENT-TOKEN-IS-INSTANCE') ? identityDocument : ref;
  },
};

/** True exactly when `current_token` answers a ref. */
const hasCurrentToken: FormDefinition = {
  required: ['has_current_token'],
  evaluate: async (ctx) => currentTokenRef(ctx) !== undefined,
};

// Implements: AUTH-CLIENT-004, AUTH-TOKEN-001
/** `Create(Tokens(), {instance, data?, ttl?})`: a token without a password, for callers allowed to create tokens. */
export const tokenHandler: NativeCollectionHandler = {
  async create(ctx, params, position) {
    const { fields, failures } = tokenFieldFailures(params);
    const instance = params.instance;
    if (instance === undefined || instance === null)
      failures.unshift({ field: ['instance'], code: 'value required', description: 'Required value not found.' });
    else if (!(instance instanceof Ref)) failures.unshift(typeFailure('instance', 'Ref', instance));
    throwIfFailures(failures, position);
    const database = ctx.database;
    const location = await userLocation(ctx, instance as Ref, position);
    if (location === undefined || location.database !== database) {
      throwIfFailures([{ field: ['instance'], code: 'invalid reference', description: 'The identity document does not exist.' }], position);
    }
    return issueToken(ctx, database, identityRef(location!), fields, position, true);
  },
};

export function registerTokenNativeCollection(natives: NativeCollectionHandlers): void {
  natives.register('tokens', tokenHandler);
}

export const authForms: readonly FormDefinition[] = [
  login,
  identify,
  logout,
  identityForm('identity'),
  identityForm('current_identity'),
  hasIdentityForm('has_identity'),
  hasIdentityForm('has_current_identity'),
  currentToken,
  hasCurrentToken,
];
