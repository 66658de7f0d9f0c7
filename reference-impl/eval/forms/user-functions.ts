/**
 * User-defined functions (DEC-065, profile v4-functions): CreateFunction and the `functions` native collection, and
 * Call. Get, Update, Replace, Delete and Paginate(Functions()) are the generic record forms; this file gives them the
 * checks a function record needs.
 */
import { isRoleRef } from '../../auth/role-record.js';
import { toExpr } from '../../codec/v4-expression-parser.js';
import type { Expr } from '../../codec/v4-ast.js';
import { QueryError, errors, type Position, type ValidationFailure } from '../../errors/query-error.js';
import { failpoint, failpointWhere } from '../../failpoints.js';
import type { DatabaseId } from '../../store/store.js';
import type { Transaction } from '../../txn/transaction.js';
import { QueryValue, Ref, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { typeName } from '../arguments.js';
import { Scope, type EvalContext } from '../context.js';
import { ensureNotFound, locateDocument, renderDocument, writeDocument, type DocumentLocation } from '../documents.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import type { Identity } from '../../auth/identity.js';
import { LambdaValue, applyLambda } from '../lambda.js';
import { nativeCreateForm, type NativeCollectionHandler, type NativeCollectionHandlers } from '../native-collections.js';
import { nameFailures, throwIfFailures, typeFailure } from '../record-fields.js';
import { missingReference } from './schema.js';

/** How many calls of user functions may be nested in one request, as in the real service. */
export const MAX_CALL_DEPTH = 200;

const FUNCTIONS_REF = new Ref('functions');

// Implements: UDF-CREATE-001, UDF-CREATE-004, UDF-CREATE-005, UDF-RECORD-003
/**
 * The fields a function record stores, from CreateFunction params or the record an Update/Replace would store:
 * `name`, `body` (a lambda, stored as `@query`), and `data` and `role` when given. Anything else is not kept
 * (DEC-065, user-functions.md Decisions). Throws `validation failed`.
 */
export function functionRecordFields(ctx: EvalContext, database: DatabaseId, params: ObjectValue, position: Position): ObjectValue {
  const { data } = params;
  const role = failpoint('UDF-ROLE-IGNORED') ? undefined : params.role;
  // The real service types `body` as a lambda or an FQL v10 source string, and refuses the string in v4 before it
  // checks any field (a server that stores the string as the body would not: UDF-STRING-BODY-STORED).
  const stored = typeof params.body === 'string' && failpoint('UDF-STRING-BODY-STORED');
  const body = stored ? new QueryValue('_', params.body, ctx.apiVersion) : params.body;
  if (typeof body === 'string') throw new QueryError('schema validation failed', 'Invalid type provided for field `body`.', position);
  const failures: ValidationFailure[] = [...nameFailures(params)];
  if (body === undefined || body === null)
    failures.push({ field: ['body'], code: 'value required', description: 'Required value not found.' });
  else if (!(body instanceof QueryValue)) failures.push(typeFailure('body', 'Query', body));
  if (data !== undefined && data !== null && !isObjectValue(data)) failures.push(typeFailure('data', 'Object', data));
  if (role !== undefined && role !== null) failures.push(...functionRoleFailures(ctx, role, database));
  // A server that checks `name` and `data` as argument types.
  const asArgument = failures.some((f) => f.field[0] === 'name' || f.field[0] === 'data');
  if (asArgument && failpoint('UDF-CREATE-FIELDS-AS-INVALID-ARGUMENT')) throw errors.invalidArgument('Object expected.', position);
  throwIfFailures(failures, position);
  const fields: ObjectValue = { name: params.name as string, body: storedLambda(body as QueryValue) };
  if (isObjectValue(data)) fields.data = data;
  if (role !== undefined && role !== null) fields.role = role;
  return fields;
}

/**
 * The built-in roles a function's body can run as. The real service also has `server-readonly`, which this server's
 * keys do not have; it is refused here (UDF-CREATE-006 lets a server do so).
 */
const BUILTIN_FUNCTION_ROLES = new Set(['admin', 'server', 'client']);

const ROLES_REF = new Ref('roles');

// Implements: UDF-CREATE-006
/**
 * Why a function `role` is refused, as the real service decides it: a built-in role, or role names and role refs of
 * the database, alone or in a list (a list holds no built-in role). A name that names no role is a `validation
 * failure`, a ref to a missing role an `invalid reference`, anything else the wrong type.
 */
function functionRoleFailures(ctx: EvalContext, role: Value, database: DatabaseId): ValidationFailure[] {
  if (typeof role === 'string' && BUILTIN_FUNCTION_ROLES.has(role)) return [];
  if (role === 'server-readonly')
    return [{ field: ['role'], code: 'invalid value', description: "Role 'server-readonly' is not supported." }];
  const inList = Array.isArray(role);
  const entries = inList ? role : [role];
  // A server that takes only the built-in role names and role refs.
  if (entries.some((entry) => typeof entry === 'string') && failpoint('UDF-ROLE-NAME-REFUSED'))
    return [{ field: ['role'], code: 'invalid value', description: "Role must be 'admin', 'server', 'client' or role refs." }];
  const builtin = (entry: Value) => typeof entry === 'string' && (BUILTIN_FUNCTION_ROLES.has(entry) || entry === 'server-readonly');
  if (!entries.every((entry) => isRoleRef(entry) || (typeof entry === 'string' && !(inList && builtin(entry)))))
    return [typeFailure('role', 'Role', role)];
  const failures: ValidationFailure[] = [];
  entries.forEach((entry, i) => {
    if (typeof entry === 'string') {
      if (!ctx.txn.get(database, 'roles', entry))
        failures.push({ field: ['role'], code: 'validation failure', description: `Role name \`${entry}\` does not exist.` });
      return;
    }
    const missing = missingReference(ctx, database, entry as Ref);
    if (missing !== undefined) failures.push({ field: inList ? ['role', i] : ['role'], code: 'invalid reference', description: missing });
  });
  return failures;
}

/** The role refs a function `role` names: refs as they are, names as refs to the role of that name. */
function roleRefsOf(role: Value): Ref[] {
  const entries = Array.isArray(role) ? role : [role];
  return entries.flatMap((entry) => (entry instanceof Ref ? [entry] : typeof entry === 'string' ? [new Ref(entry, ROLES_REF)] : []));
}

// Implements: UDF-CREATE-001
/** A lambda written as `{"lambda": …}` or `{"query": …}` is stored alike, as a plain `@query` value. */
function storedLambda(value: QueryValue): QueryValue {
  return value instanceof LambdaValue ? new QueryValue(value.lambda, value.expr, value.apiVersion) : value;
}

// Implements: UDF-CREATE-001, UDF-CREATE-003, UDF-RECORD-003
export const functionHandler: NativeCollectionHandler = {
  async create(ctx, params, position) {
    const fields = functionRecordFields(ctx, ctx.database, params, position);
    const name = fields.name as string;
    const ref = new Ref(name, FUNCTIONS_REF);
    const location: DocumentLocation = { database: ctx.database, collection: 'functions', id: name, ref };
    // A server that does not look for the name: a taken one answers a record of it, and nothing is written.
    if (failpointWhere('UDF-DUPLICATE-NAME-ACCEPTED', () => ctx.txn.get(ctx.database, 'functions', name) !== undefined)) {
      const record: ObjectValue = { ref, ts: ctx.txn.ts, ...fields };
      ctx.created.add(record);
      return record;
    }
    await ensureNotFound(ctx, location, position);
    const record = renderDocument(ref, await writeDocument(ctx, location, 'create', fields, {}, position));
    ctx.created.add(record);
    return record;
  },
  checkUpdate: (ctx, database, fields, position) => functionRecordFields(ctx, database, fields, position),
};

export function registerFunctionNativeCollection(natives: NativeCollectionHandlers): void {
  natives.register('functions', functionHandler);
}

/** True for a ref to a record of the `functions` native collection, whatever its database scope. */
function isFunctionRef(value: Value): value is Ref {
  return (
    value instanceof Ref &&
    value.collection !== undefined &&
    value.collection.id === 'functions' &&
    value.collection.collection === undefined
  );
}

// Implements: UDF-CALL-001, UDF-CALL-003, UDF-CALL-004
/** Where the function a Call names lives: a name of the caller's database, or a function ref. */
function locateFunction(ctx: EvalContext, target: Value, position: Position): DocumentLocation {
  if (typeof target === 'string') {
    if (failpoint('UDF-CALL-BY-NAME-REFUSED')) throw errors.invalidArgument('Ref expected, String provided.', position);
    if (!ctx.txn.get(ctx.database, 'functions', target)) throw undefinedFunction(target, position);
    return { database: ctx.database, collection: 'functions', id: target, ref: new Ref(target, FUNCTIONS_REF) };
  }
  if (isFunctionRef(target)) return locateDocument(ctx, target, position);
  const expected = failpoint('UDF-CALL-TARGET-TYPE-WORDING') ? 'String or Ref' : 'Identifier';
  throw errors.invalidArgument(`${expected} expected, ${typeName(target)} provided.`, position);
}

/** `invalid ref` for a function that is not there (404 `instance not found` from the failpoint's server). */
function undefinedFunction(id: string, position: Position): QueryError {
  if (failpoint('UDF-MISSING-FUNCTION-NOT-FOUND')) return errors.notFound(position, 'Function not found.');
  return errors.invalidRef(`Ref refers to undefined function '${id}'`, position);
}

/**
 * How many user-function calls are under way in each transaction. A request evaluates one expression at a time, so
 * this is the depth of the calls nested at the current point; it counts down as each call ends, failed or not.
 */
const activeCalls = new WeakMap<Transaction, number>();

/** Parsed bodies of stored lambdas (a stored version's values never change), positioned from the lambda (`["expr", …]`). */
const parsedBodies = new WeakMap<QueryValue, Expr>();

function bodyOf(lambda: QueryValue): Expr {
  let body = parsedBodies.get(lambda);
  if (body === undefined) {
    body = toExpr(lambda.expr, ['expr']);
    parsedBodies.set(lambda, body);
  }
  return body;
}

// Implements: UDF-ACCESS-004, UDF-ACCESS-005, UDF-ACCESS-006
/**
 * The identity a function's body runs as: the caller's, or with a function `role` that role's rights instead of the
 * caller's (a built-in role, or exactly the named roles). The caller's identity document stays its identity.
 */
function actingIdentity(caller: Identity, role: Value | undefined): Identity {
  if (role === 'admin' || role === 'server' || role === 'client') return { ...caller, role, roleRefs: [] };
  if (role === undefined || role === null) return caller;
  return { ...caller, role: 'client', roleRefs: roleRefsOf(role) };
}

// Implements: UDF-ACCESS-001, UDF-ACCESS-002, UDF-ACCESS-003, UDF-CALL-001, UDF-CALL-002, UDF-CALL-005, UDF-CALL-006
// Implements: UDF-CALL-007, UDF-CALL-008, UDF-RECORD-006
async function callFunction(ctx: EvalContext, args: FormArgs): Promise<Value> {
  const target = await args.value(ctx, 'call');
  const given = args.has('arguments') ? await args.value(ctx, 'arguments') : [];
  const argument = !Array.isArray(given) && failpoint('UDF-ARGUMENTS-ALWAYS-ARRAY') ? [given] : given;
  const position = args.node.position;
  const location = locateFunction(ctx, target, args.position('call'));
  const version = ctx.txn.get(location.database, 'functions', location.id);
  const body = version?.fields.body;
  if (version === undefined || !(body instanceof QueryValue)) throw undefinedFunction(location.id, args.position('call'));
  // Calling needs the `call` privilege, not `read`; its predicate gets the arguments as the function does.
  const allowed = ctx.services.access.allows(ctx, {
    action: 'call',
    database: location.database,
    collection: 'functions',
    ref: location.ref,
    before: version,
    arguments: argument,
  });
  if (!(allowed === true || (allowed !== false && (await allowed)))) {
    // A server that checks the call privilege only inside the body.
    if (failpoint('UDF-CALL-DENIED-AS-CALL-ERROR')) throw callError(errors.permissionDenied([]), position);
    throw errors.permissionDenied(position);
  }
  const depth = activeCalls.get(ctx.txn) ?? 0;
  if (depth >= MAX_CALL_DEPTH)
    throw new QueryError('stack overflow', `Call stack reached the maximum limit of ${MAX_CALL_DEPTH}.`, position);
  const lambda = new LambdaValue(body.lambda, body.expr, bodyOf(body), Scope.EMPTY, body.apiVersion);
  const acting = ctx.withIdentity(actingIdentity(ctx.identity, version.fields.role)).withScope(Scope.EMPTY);
  activeCalls.set(ctx.txn, depth + 1);
  try {
    return await applyLambda(acting, lambda, [argument], [...position, 'lambda']);
  } catch (error) {
    // A stack overflow is reported as it is, wherever it happened; any other failure of the body is wrapped.
    if (!(error instanceof QueryError) || failpoint('UDF-CALL-ERROR-UNWRAPPED')) throw error;
    if (error.code === 'stack overflow' && !(depth === 0 && failpoint('UDF-STACK-OVERFLOW-WRAPPED'))) throw error;
    throw callError(error, position);
  } finally {
    activeCalls.set(ctx.txn, depth);
  }
}

function callError(cause: QueryError, position: Position): QueryError {
  return new QueryError('call error', 'Calling the function resulted in an error.', position, { cause: [cause] });
}

const call: FormDefinition = {
  required: ['call'],
  optional: ['arguments'],
  evaluate: callFunction,
};

export const userFunctionForms: readonly FormDefinition[] = [nativeCreateForm('create_function', 'functions'), call];
