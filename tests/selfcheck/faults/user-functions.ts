// Faults of user-defined functions (spec/requirements/user-functions.md): servers that get CreateFunction, the
// function record, Call or the call privilege wrong in one realistic way each.
import type { Fault, FaultHooks } from '../fault.js';
import { forEachObject, isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import {
  bodyJson,
  expressionUses,
  isV4Query,
  nativeCollectionOf,
  records,
  rewriteExpression,
  rewriteJson,
  rewriteResponse,
  topLevelForm,
  v4Errors,
  v4Expression,
  hasErrorCode,
  withJsonBody,
  withStatus,
  recodeFailures,
} from './lib/rewrites.js';

/** The first error of a v4 error body, when it has `code`. */
function firstErrorWith(body: unknown, code: string): JsonObject | undefined {
  const [first] = v4Errors(body);
  return first?.code === code ? first : undefined;
}

/** A response hook turning a top-level error with `code` of a request that Calls into another error (and status). */
function rewriteCallError(code: string, into: (error: JsonObject) => { status: number; error: JsonObject }): FaultHooks['response'] {
  return rewriteResponse(
    (res, ctx) => isV4Query(ctx.original) && expressionUses(ctx.original, 'call') && firstErrorWith(bodyJson(res), code) !== undefined,
    (res) => {
      const { status, error } = into(firstErrorWith(bodyJson(res), code)!);
      return withStatus(withJsonBody(res, { errors: [error] }), status);
    },
  );
}

/** True for a record of the `functions` native collection. */
function isFunctionRecord(record: JsonObject): boolean {
  return nativeCollectionOf(record) === 'functions';
}

export const USER_FUNCTION_FAULTS: readonly Fault[] = [
  {
    id: 'UDF-CALL-ERROR-UNWRAPPED',
    title: 'An error in a function body is reported as itself, not as a call error',
    breaks: ['UDF-CALL-005', 'UDF-CALL-006', 'UDF-ACCESS-004'],
    area: 'core',
    description: 'A `call error` answer of a request that Calls becomes its first cause, as from a server that does not wrap failures of function bodies.',
    apply: () => ({
      response: rewriteCallError('call error', (error) => {
        const cause = Array.isArray(error.cause) && isJsonObject(error.cause[0]) ? error.cause[0] : error;
        return { status: cause.code === 'permission denied' ? 403 : 400, error: cause };
      }),
    }),
  },
  {
    id: 'UDF-ARGUMENTS-ALWAYS-ARRAY',
    title: 'Call passes a single argument inside an array',
    breaks: ['UDF-CALL-002'],
    area: 'core',
    description: 'Every `arguments` of a Call that is not an array expression is wrapped in one, as from a server that always hands the lambda a list of arguments.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('call' in object) || !('arguments' in object) || Array.isArray(object.arguments)) return;
          object.arguments = [object.arguments];
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'UDF-MISSING-FUNCTION-NOT-FOUND',
    title: 'Call of a missing function answers 404 instance not found',
    breaks: ['UDF-CALL-003', 'UDF-RECORD-006'],
    area: 'core',
    description: "An `invalid ref` answer naming an undefined function becomes 404 `instance not found` (`Function not found.`) at the same position.",
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const error = isV4Query(ctx.original) ? firstErrorWith(bodyJson(res), 'invalid ref') : undefined;
          return typeof error?.description === 'string' && error.description.startsWith('Ref refers to undefined function');
        },
        (res) => {
          const error = firstErrorWith(bodyJson(res), 'invalid ref')!;
          return withStatus(withJsonBody(res, { errors: [{ position: error.position, code: 'instance not found', description: 'Function not found.' }] }), 404);
        },
      ),
    }),
  },
  {
    id: 'UDF-CALL-DENIED-AS-CALL-ERROR',
    title: 'A Call without the call privilege fails inside the function',
    breaks: ['UDF-ACCESS-001', 'UDF-ACCESS-002', 'UDF-ACCESS-003'],
    area: 'core',
    description: 'A 403 `permission denied` answer of a request that Calls becomes 400 `call error` with the denial as its cause, as from a server that checks the call privilege only inside the body.',
    apply: () => ({
      response: rewriteCallError('permission denied', (error) => ({
        status: 400,
        error: { position: error.position, code: 'call error', description: 'Calling the function resulted in an error.', cause: [{ ...error, position: [] }] },
      })),
    }),
  },
  {
    id: 'UDF-STACK-OVERFLOW-WRAPPED',
    title: 'A stack overflow of nested Calls is wrapped in a call error',
    breaks: ['UDF-CALL-007'],
    area: 'core',
    description: 'A `stack overflow` answer of a request that Calls becomes a `call error` at the top with the overflow as its cause.',
    apply: () => ({
      response: rewriteCallError('stack overflow', (error) => ({
        status: 400,
        error: { position: [], code: 'call error', description: 'Calling the function resulted in an error.', cause: [error] },
      })),
    }),
  },
  {
    id: 'UDF-BODY-NOT-QUERY',
    title: 'A function record shows its body as a bare lambda',
    breaks: ['UDF-CREATE-001', 'UDF-RECORD-001'],
    area: 'core',
    description: 'The `body` of every function record answered is rendered as `{"lambda": …, "expr": …}` instead of an `@query` value.',
    apply: () => ({
      json: rewriteJson(
        () => true,
        (body) => {
          let changed = 0;
          for (const record of records(body)) {
            if (!isFunctionRecord(record) || !isJsonObject(record.body) || !isJsonObject(record.body['@query'])) continue;
            record.body = record.body['@query'];
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'UDF-DUPLICATE-NAME-ACCEPTED',
    title: 'CreateFunction with a taken name answers 201',
    breaks: ['UDF-CREATE-003'],
    area: 'core',
    description: 'A top-level `create_function` refused with `instance already exists` answers 201 with a record of that name, as from a server that does not look for the name (nothing is written).',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => topLevelForm(ctx.original) === 'create_function' && firstErrorWith(bodyJson(res), 'instance already exists') !== undefined,
        (res) => withStatus(withJsonBody(res, { resource: { ref: { '@ref': { id: 'taken', collection: { '@ref': { id: 'functions' } } } }, name: 'taken' } }), 201),
      ),
    }),
  },
  {
    id: 'UDF-BODY-FAILURE-CODE',
    title: 'A missing or mistyped function body is reported with another failure code',
    breaks: ['UDF-CREATE-004'],
    area: 'core',
    description: 'Failures for the field `["body"]` of `validation failed` answers carry the code `invalid value`.',
    apply: () => ({
      json: recodeFailures((failure) => Array.isArray(failure.field) && failure.field.length === 1 && failure.field[0] === 'body', 'invalid value'),
    }),
  },
  {
    id: 'UDF-ROLE-IGNORED',
    title: 'A function role does not give the body its rights',
    breaks: ['UDF-ACCESS-005', 'UDF-ACCESS-006'],
    area: 'core',
    description: "The `role` of CreateFunction params is not passed on, as from a server that runs every body with the caller's rights.",
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          const params = isJsonObject(object.create_function) && isJsonObject(object.create_function.object) ? object.create_function.object : undefined;
          if (params === undefined || !('role' in params)) return;
          delete params.role;
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'UDF-CALL-TARGET-TYPE-WORDING',
    title: 'Call of a value that names no function words its type error differently',
    breaks: ['UDF-CALL-004'],
    area: 'core',
    description: 'An `invalid argument` answer `Identifier expected, <type> provided.` says `String or Ref expected, <type> provided.` instead.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => isV4Query(ctx.original) && expressionUses(ctx.original, 'call'),
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (error.code !== 'invalid argument' || typeof error.description !== 'string' || !error.description.startsWith('Identifier expected')) continue;
            error.description = error.description.replace('Identifier expected', 'String or Ref expected');
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'UDF-FUNCTIONS-LISTING-EMPTY',
    title: 'Paginate(Functions()) lists nothing',
    breaks: ['UDF-RECORD-002'],
    area: 'core',
    description: 'The page answered to a Paginate of `{"functions": …}` has an empty `data`, as from a server that does not list function records.',
    apply: () => ({
      json: rewriteJson(
        (_body, ctx) => topLevelForm(ctx.original) === 'paginate' && expressionUses(ctx.original, 'functions'),
        (body) => {
          const page = isJsonObject(body) && isJsonObject(body.resource) ? body.resource : undefined;
          if (page === undefined || !Array.isArray(page.data) || page.data.length === 0) return 0;
          page.data = [];
          return 1;
        },
      ),
    }),
  },
  {
    id: 'UDF-CALL-BY-NAME-REFUSED',
    title: 'Call takes only a function ref, not a name',
    breaks: ['UDF-CALL-001'],
    area: 'core',
    description: 'A Call whose target is a string (the function\'s name) answers 400 invalid argument "Ref expected, String provided." at `["call"]`.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const expression = v4Expression(ctx.original);
          return res.status === 200 && isJsonObject(expression) && 'call' in expression && typeof expression.call === 'string';
        },
        (res) => withStatus(withJsonBody(res, { errors: [{ position: ['call'], code: 'invalid argument', description: 'Ref expected, String provided.' }] }), 400),
      ),
    }),
  },
  {
    id: 'UDF-BODY-WRITES-OWN-TRANSACTION',
    title: 'A function body commits its writes even when the request fails',
    breaks: ['UDF-CALL-008'],
    area: 'core',
    description: 'Each Call runs in a transaction of its own: a request that Calls a writing function and then aborts keeps what the body wrote.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        if (!Array.isArray(expression) || !expression.some((e) => isJsonObject(e) && 'call' in e)) return 0;
        const aborts = expression.filter((e) => isJsonObject(e) && 'abort' in e).length;
        if (aborts === 0) return 0;
        expression.splice(0, expression.length, ...expression.filter((e) => !(isJsonObject(e) && 'abort' in e)));
        return aborts;
      }),
      response: rewriteResponse(
        (res, ctx) => {
          const expression = v4Expression(ctx.original);
          return Array.isArray(expression) && expression.some((e) => isJsonObject(e) && 'call' in e) && expression.some((e) => isJsonObject(e) && 'abort' in e);
        },
        (res, ctx) => {
          const expression = v4Expression(ctx.original) as unknown[];
          const at = expression.findIndex((e) => isJsonObject(e) && 'abort' in e);
          const reason = (expression[at] as JsonObject).abort;
          return withStatus(withJsonBody(res, { errors: [{ position: [jsonInt(at)], code: 'transaction aborted', description: typeof reason === 'string' ? reason : 'aborted' }] }), 400);
        },
      ),
    }),
  },
  {
    id: 'UDF-CREATE-FUNCTIONS-REF-REFUSED',
    title: 'Create of Ref("functions") is refused',
    breaks: ['UDF-CREATE-002'],
    area: 'core',
    description: 'Create with the `functions` native collection as its target answers 400 invalid argument, as from a server that creates functions only through CreateFunction.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const expression = v4Expression(ctx.original);
          return res.status === 201 && isJsonObject(expression) && isJsonObject(expression.create) && 'functions' in expression.create;
        },
        (res) => withStatus(withJsonBody(res, { errors: [{ position: ['create'], code: 'invalid argument', description: 'Collection Ref expected, Ref provided.' }] }), 400),
      ),
    }),
  },
  {
    id: 'UDF-CREATE-FIELDS-AS-INVALID-ARGUMENT',
    title: 'A missing or mistyped function name or data is an invalid argument',
    breaks: ['UDF-CREATE-005'],
    area: 'core',
    description: 'CreateFunction checks `name` and `data` as argument types: 400 invalid argument without failures instead of validation failed naming the field.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 400 && topLevelForm(context.original) === 'create_function',
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            const failures = Array.isArray(error.failures) ? error.failures : [];
            if (error.code !== 'validation failed' || !failures.some((f) => isJsonObject(f) && Array.isArray(f.field) && ['name', 'data'].includes(String(f.field[0])))) continue;
            error.code = 'invalid argument';
            error.description = 'Object expected.';
            delete error.failures;
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'UDF-ROLE-FAILURES-AS-INVALID-TYPE',
    title: 'Every bad function role is reported as invalid type',
    breaks: ['UDF-CREATE-006'],
    area: 'core',
    description: 'A function `role` naming no role or a missing role ref is reported with the failure code `invalid type` instead of `validation failure` (or `invalid value`) or `invalid reference`.',
    apply: () => ({ json: recodeFailures((failure) => Array.isArray(failure.field) && failure.field.length === 1 && failure.field[0] === 'role' && failure.code !== 'invalid type', 'invalid type') }),
  },
  {
    id: 'UDF-STRING-BODY-STORED',
    title: 'A string function body is stored',
    breaks: ['UDF-CREATE-004'],
    area: 'core',
    description: 'CreateFunction with a string body (an FQL v10 source) creates the function, as a server that keeps the string as the body would, where the real service refuses it in v4.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          const params = isJsonObject(object.create_function) && isJsonObject(object.create_function.object) ? object.create_function.object : undefined;
          if (params === undefined || typeof params.body !== 'string') return;
          params.body = { query: { lambda: '_', expr: params.body } };
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'UDF-ROLE-NAME-REFUSED',
    title: 'A function role naming a role of the database is refused',
    breaks: ['UDF-CREATE-006'],
    area: 'core',
    description: "CreateFunction whose `role` is the name of an existing role (alone or in a list) answers 400 validation failed `invalid value`, as a server that accepts only the built-in role names and role refs would.",
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          if (res.status !== 200 && res.status !== 201) return false;
          let named = false;
          forEachObject(v4Expression(ctx.original), (object) => {
            const params = isJsonObject(object.create_function) && isJsonObject(object.create_function.object) ? object.create_function.object : undefined;
            const roles = params === undefined ? [] : Array.isArray(params.role) ? params.role : [params.role];
            if (roles.some((role) => typeof role === 'string' && !['admin', 'server', 'server-readonly', 'client'].includes(role))) named = true;
          });
          return named;
        },
        (res) =>
          withStatus(
            withJsonBody(res, {
              errors: [{ position: ['create_function'], code: 'validation failed', description: 'document data is not valid.', failures: [{ field: ['role'], code: 'invalid value', description: "Role must be 'admin', 'server', 'client' or role refs." }] }],
            }),
            400,
          ),
      ),
    }),
  },
  {
    id: 'UDF-CREATE-CLIENT-KEY-UNAUTHORIZED',
    title: 'CreateFunction with a client key answers 401',
    breaks: ['UDF-CREATE-007'],
    area: 'core',
    description: 'A CreateFunction refused for a key without the privilege answers 401 `unauthorized`, as if the secret were not valid, instead of 403 `permission denied`.',
    apply: () => ({
      response: rewriteResponse(
        (res, context) => res.status === 403 && topLevelForm(context.original) === 'create_function' && hasErrorCode(bodyJson(res), 'permission denied'),
        (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'unauthorized', description: 'Unauthorized' }] }), 401),
      ),
    }),
  },
  {
    id: 'UDF-UPDATE-FIELDS-UNCHECKED',
    title: 'Update of a function does not check its body and role',
    breaks: ['UDF-RECORD-003'],
    area: 'core',
    description: 'An Update of a function with a body or role CreateFunction would refuse answers 200, as from a server that validates function records only when they are created.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const expression = v4Expression(ctx.original);
          return res.status === 400 && isJsonObject(expression) && isJsonObject(expression.update) && 'function' in expression.update && hasErrorCode(bodyJson(res), 'validation failed');
        },
        (res) => withStatus(withJsonBody(res, { resource: null }), 200),
      ),
    }),
  },
  {
    id: 'UDF-RENAME-IGNORED',
    title: 'Update of a function ignores a new name',
    breaks: ['UDF-RECORD-004'],
    area: 'core',
    description: 'A new `name` given to Update of a function is dropped, as from a server whose function names cannot change.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        if (!isJsonObject(expression) || !isJsonObject(expression.update) || !('function' in expression.update)) return 0;
        const params = isJsonObject(expression.params) && isJsonObject(expression.params.object) ? expression.params.object : undefined;
        if (params === undefined || !('name' in params)) return 0;
        delete params.name;
        return 1;
      }),
    }),
  },
  {
    id: 'UDF-REPLACE-AS-UPDATE',
    title: 'Replace of a function merges as Update does',
    breaks: ['UDF-RECORD-005'],
    area: 'core',
    description: 'Replace of a function keeps the fields it is not given (its `data`), as Update does.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        if (!isJsonObject(expression) || !isJsonObject(expression.replace) || !('function' in expression.replace)) return 0;
        expression.update = expression.replace;
        delete expression.replace;
        return 1;
      }),
    }),
  },
];
