// The faults of spec/requirements/functions-keys.md that are code; their rows (ids, titles, what they break) are in functions-keys.json.
import { isJsonObject, type JsonObject } from '../json-body.js';
import { topLevelCall } from './lib/calls.js';
import { bodyJson, rewriteJson, rewriteResponse, v4Errors, withJsonBody, withStatus } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {

  'KEY-FROM-SECRET-PERMISSION-DENIED': () => ({
    response: rewriteResponse(
      (res, ctx) => {
        const call = topLevelCall(ctx.original, 'key_from_secret')?.call;
        return res.status === 404 && call !== undefined && /^fn[A-Za-z0-9_-]{20,}/.test(String(call['key_from_secret']));
      },
      (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'permission denied', description: 'Insufficient privileges to perform the action.' }] }), 403),
    ),
  }),

  'KEY-FROM-SECRET-UNKNOWN-NULL': () => ({
    response: rewriteResponse(
      (res, ctx) => res.status === 404 && topLevelCall(ctx.original, 'key_from_secret')?.call !== undefined,
      (res) => withStatus(withJsonBody(res, { resource: null }), 200),
    ),
  }),

  'KEY-FROM-SECRET-SHOWS-SECRET': () => ({
    json: rewriteJson(
      (body, context) => context.status === 200 && isJsonObject(body) && isJsonObject(body['resource']) && topLevelCall(context.original, 'key_from_secret')?.call !== undefined,
      (body, context) => {
        ((body as JsonObject)['resource'] as JsonObject)['secret'] = topLevelCall(context.original, 'key_from_secret')!.call['key_from_secret']!;
        return true;
      },
    ),
  }),

  'KEY-FROM-SECRET-ANY-ARGUMENT': () => ({
    response: rewriteResponse(
      (res, ctx) =>
        res.status === 400 &&
        topLevelCall(ctx.original, 'key_from_secret')?.call !== undefined &&
        v4Errors(bodyJson(res)).some((e) => String(e['description']).startsWith('String expected')),
      (res) => withStatus(withJsonBody(res, { errors: [{ position: [], code: 'instance not found', description: 'No key found for secret.' }] }), 404),
    ),
  }),

};
