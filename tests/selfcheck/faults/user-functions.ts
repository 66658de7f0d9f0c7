// The faults of spec/requirements/user-functions.md that are code; their rows (ids, titles, what they break) are in user-functions.json.
import type { FaultHooks } from '../fault.js';
import { forEachObject, isJsonObject, type JsonObject } from '../json-body.js';
import {
  bodyJson,
  editErrors,
  expressionUses,
  isV4Query,
  nativeCollectionOf,
  onExpression,
  onJson,
  onObjects,
  onResponse,
  rewriteResponse,
  topLevelForm,
  v4Errors,
  v4Expression,
  withJsonBody,
  withStatus,
  onRecords,
  validationFailedAnswer,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

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

export const code: FaultCode = {
  'UDF-CALL-ERROR-UNWRAPPED': () => ({
    response: rewriteCallError('call error', (error) => {
      const cause = Array.isArray(error.cause) && isJsonObject(error.cause[0]) ? error.cause[0] : error;
      return { status: cause.code === 'permission denied' ? 403 : 400, error: cause };
    }),
  }),
  'UDF-ARGUMENTS-ALWAYS-ARRAY': onObjects((object) => {
    if (!('call' in object) || !('arguments' in object) || Array.isArray(object.arguments)) return false;
    object.arguments = [object.arguments];
    return true;
  }),
  'UDF-MISSING-FUNCTION-NOT-FOUND': onResponse(
    (res, ctx) => {
      const error = isV4Query(ctx.original) ? firstErrorWith(bodyJson(res), 'invalid ref') : undefined;
      return typeof error?.description === 'string' && error.description.startsWith('Ref refers to undefined function');
    },
    (res) => {
      const error = firstErrorWith(bodyJson(res), 'invalid ref')!;
      return withStatus(
        withJsonBody(res, { errors: [{ position: error.position, code: 'instance not found', description: 'Function not found.' }] }),
        404,
      );
    },
  ),
  'UDF-CALL-DENIED-AS-CALL-ERROR': () => ({
    response: rewriteCallError('permission denied', (error) => ({
      status: 400,
      error: {
        position: error.position,
        code: 'call error',
        description: 'Calling the function resulted in an error.',
        cause: [{ ...error, position: [] }],
      },
    })),
  }),
  'UDF-STACK-OVERFLOW-WRAPPED': () => ({
    response: rewriteCallError('stack overflow', (error) => ({
      status: 400,
      error: { position: [], code: 'call error', description: 'Calling the function resulted in an error.', cause: [error] },
    })),
  }),
  'UDF-BODY-NOT-QUERY': onRecords((record) => {
    if (!isFunctionRecord(record) || !isJsonObject(record.body) || !isJsonObject(record.body['@query'])) return false;
    record.body = record.body['@query'];
    return true;
  }),
  'UDF-DUPLICATE-NAME-ACCEPTED': onResponse(
    (res, ctx) =>
      topLevelForm(ctx.original) === 'create_function' && firstErrorWith(bodyJson(res), 'instance already exists') !== undefined,
    (res) =>
      withStatus(
        withJsonBody(res, { resource: { ref: { '@ref': { id: 'taken', collection: { '@ref': { id: 'functions' } } } }, name: 'taken' } }),
        201,
      ),
  ),
  'UDF-ROLE-IGNORED': onObjects((object) => {
    const params =
      isJsonObject(object.create_function) && isJsonObject(object.create_function.object) ? object.create_function.object : undefined;
    if (params === undefined || !('role' in params)) return false;
    delete params.role;
    return true;
  }),
  'UDF-CALL-TARGET-TYPE-WORDING': onJson(
    (_body, ctx) => isV4Query(ctx.original) && expressionUses(ctx.original, 'call'),
    (body) =>
      editErrors(body, (error) => {
        if (
          error.code !== 'invalid argument' ||
          typeof error.description !== 'string' ||
          !error.description.startsWith('Identifier expected')
        )
          return false;
        error.description = error.description.replace('Identifier expected', 'String or Ref expected');
        return true;
      }),
  ),
  'UDF-FUNCTIONS-LISTING-EMPTY': onJson(
    (_body, ctx) => topLevelForm(ctx.original) === 'paginate' && expressionUses(ctx.original, 'functions'),
    (body) => {
      const page = isJsonObject(body) && isJsonObject(body.resource) ? body.resource : undefined;
      if (page === undefined || !Array.isArray(page.data) || page.data.length === 0) return 0;
      page.data = [];
      return 1;
    },
  ),
  'UDF-CALL-BY-NAME-REFUSED': onResponse(
    (res, ctx) => {
      const expression = v4Expression(ctx.original);
      return res.status === 200 && isJsonObject(expression) && 'call' in expression && typeof expression.call === 'string';
    },
    (res) =>
      withStatus(
        withJsonBody(res, { errors: [{ position: ['call'], code: 'invalid argument', description: 'Ref expected, String provided.' }] }),
        400,
      ),
  ),
  'UDF-CREATE-FUNCTIONS-REF-REFUSED': onResponse(
    (res, ctx) => {
      const expression = v4Expression(ctx.original);
      return res.status === 201 && isJsonObject(expression) && isJsonObject(expression.create) && 'functions' in expression.create;
    },
    (res) =>
      withStatus(
        withJsonBody(res, {
          errors: [{ position: ['create'], code: 'invalid argument', description: 'Collection Ref expected, Ref provided.' }],
        }),
        400,
      ),
  ),
  'UDF-CREATE-FIELDS-AS-INVALID-ARGUMENT': onJson(
    (_body, context) => context.status === 400 && topLevelForm(context.original) === 'create_function',
    (body) =>
      editErrors(body, (error) => {
        const failures = Array.isArray(error.failures) ? error.failures : [];
        if (
          error.code !== 'validation failed' ||
          !failures.some((f) => isJsonObject(f) && Array.isArray(f.field) && ['name', 'data'].includes(String(f.field[0])))
        )
          return false;
        error.code = 'invalid argument';
        error.description = 'Object expected.';
        delete error.failures;
        return true;
      }),
  ),
  'UDF-STRING-BODY-STORED': onObjects((object) => {
    const params =
      isJsonObject(object.create_function) && isJsonObject(object.create_function.object) ? object.create_function.object : undefined;
    if (params === undefined || typeof params.body !== 'string') return false;
    params.body = { query: { lambda: '_', expr: params.body } };
    return true;
  }),
  'UDF-ROLE-NAME-REFUSED': onResponse(
    (res, ctx) => {
      if (res.status !== 200 && res.status !== 201) return false;
      let named = false;
      forEachObject(v4Expression(ctx.original), (object) => {
        const params =
          isJsonObject(object.create_function) && isJsonObject(object.create_function.object) ? object.create_function.object : undefined;
        const roles = params === undefined ? [] : Array.isArray(params.role) ? params.role : [params.role];
        if (roles.some((role) => typeof role === 'string' && !['admin', 'server', 'server-readonly', 'client'].includes(role)))
          named = true;
      });
      return named;
    },
    (res) =>
      validationFailedAnswer(res, ['create_function'], {
        field: ['role'],
        code: 'invalid value',
        description: "Role must be 'admin', 'server', 'client' or role refs.",
      }),
  ),
  'UDF-RENAME-IGNORED': onExpression((expression) => {
    if (!isJsonObject(expression) || !isJsonObject(expression.update) || !('function' in expression.update)) return 0;
    const params = isJsonObject(expression.params) && isJsonObject(expression.params.object) ? expression.params.object : undefined;
    if (params === undefined || !('name' in params)) return 0;
    delete params.name;
    return 1;
  }),
  'UDF-REPLACE-AS-UPDATE': onExpression((expression) => {
    if (!isJsonObject(expression) || !isJsonObject(expression.replace) || !('function' in expression.replace)) return 0;
    expression.update = expression.replace;
    delete expression.replace;
    return 1;
  }),
};
