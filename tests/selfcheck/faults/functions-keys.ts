// The faults of spec/requirements/functions-keys.md that are code; their rows (ids, titles, what they break) are in functions-keys.json.
import { isJsonObject, type JsonObject } from '../json-body.js';
import { topLevelCall } from './lib/calls.js';
import { onJson, onResponse, withJsonBody, withStatus } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {
  'KEY-FROM-SECRET-PERMISSION-DENIED': onResponse(
    (res, ctx) => {
      const call = topLevelCall(ctx.original, 'key_from_secret')?.call;
      return res.status === 404 && call !== undefined && /^fn[A-Za-z0-9_-]{20,}/.test(String(call.key_from_secret));
    },
    (res) =>
      withStatus(
        withJsonBody(res, {
          errors: [{ position: [], code: 'permission denied', description: 'Insufficient privileges to perform the action.' }],
        }),
        403,
      ),
  ),
  'KEY-FROM-SECRET-SHOWS-SECRET': onJson(
    (body, context) =>
      context.status === 200 &&
      isJsonObject(body) &&
      isJsonObject(body.resource) &&
      topLevelCall(context.original, 'key_from_secret')?.call !== undefined,
    (body, context) => {
      ((body as JsonObject).resource as JsonObject).secret = topLevelCall(context.original, 'key_from_secret')!.call.key_from_secret!;
      return true;
    },
  ),
};
