// Faults of user-defined functions (spec/requirements/user-functions.md): servers that get CreateFunction, the
// function record, Call or the call privilege wrong in one realistic way each.
import type { Fault, FaultHooks } from '../fault.js';
import { forEachObject, isJsonObject, type JsonObject } from '../json-body.js';
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
  withJsonBody,
  withStatus,
  recodeFailures,
} from './rewrites.js';

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
];
