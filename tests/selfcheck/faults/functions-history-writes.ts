// The faults of spec/requirements/functions-history-writes.md that are code; their rows (ids, titles, what they break) are in functions-history-writes.json.
import type { JsonResponseContext } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import {
  expressionUses,
  onExpression,
  onJson,
  rewriteExpression,
  rewriteJson,
  v4Errors,
  v4Expression,
  v4Resource,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

const isInsert = (object: JsonObject): boolean => 'insert' in object && 'ts' in object && 'action' in object;

const isRemove = (object: JsonObject): boolean => 'remove' in object && 'ts' in object && 'action' in object;

/** A request hook applying `rewrite` to every Insert (or Remove) call of the expression. */
function rewriteCalls(
  matches: (object: JsonObject) => boolean,
  rewrite: (call: JsonObject) => boolean,
): ReturnType<typeof rewriteExpression> {
  return rewriteExpression((expression) => {
    let changed = 0;
    forEachObject(expression, (object) => {
      if (matches(object) && rewrite(object)) changed++;
    });
    return changed;
  });
}

/** True when the request's expression has an Insert whose action is `action`. */
function insertsWith(expression: unknown, action: string): boolean {
  let found = false;
  forEachObject(expression, (object) => {
    if (isInsert(object) && object.action === action) found = true;
  });
  return found;
}

/** A JSON hook for successful answers to expressions holding an Insert: `rewrite` the answered event. */
function rewriteInsertedEvent(
  applies: (context: JsonResponseContext) => boolean,
  rewrite: (event: JsonObject) => boolean,
): ReturnType<typeof rewriteJson> {
  return rewriteJson(
    (body, context) =>
      context.status === 200 && expressionUses(context.original, 'insert') && isJsonObject(v4Resource(body)) && applies(context),
    (body) => {
      const event = v4Resource(body) as JsonObject;
      return 'document' in event && typeof event.action === 'string' && rewrite(event);
    },
  );
}

export const code: FaultCode = {
  'HISTW-UPDATE-ANSWERED-AS-UPDATE': () => ({
    json: rewriteInsertedEvent(
      (context) => insertsWith(v4Expression(context.original), 'update'),
      (event) => {
        if (event.action !== 'create') return false;
        event.action = 'update';
        return true;
      },
    ),
  }),
  'HISTW-TS-OFF-BY-ONE': () => ({
    request: rewriteCalls(isInsert, (call) => {
      if (!isJsonInteger(call.ts)) return false;
      call.ts = jsonInt(BigInt(String(call.ts)) - 1n);
      return true;
    }),
  }),
  'HISTW-PARAMS-IGNORED': () => ({
    request: rewriteCalls(isInsert, (call) => {
      if (!('params' in call) || call.params === null) return false;
      delete call.params;
      return true;
    }),
  }),
  'HISTW-FUTURE-ACCEPTED': () => ({
    request: rewriteCalls(isInsert, (call) => {
      if (!isJsonObject(call.ts) || !('time_add' in call.ts)) return false;
      call.ts = { now: null };
      return true;
    }),
  }),
  'HISTW-REMOVE-IGNORES-KIND': () => ({
    request: rewriteCalls(isRemove, (call) => {
      if (call.action !== 'delete') return false;
      call.action = 'create';
      return true;
    }),
  }),
  'HISTW-DELETE-EMPTY-DATA': () => ({
    json: rewriteInsertedEvent(
      () => true,
      (event) => {
        if (event.action !== 'delete' || event.data !== null) return false;
        event.data = {};
        return true;
      },
    ),
  }),
  'HISTW-NO-PARAMS-DATA-OMITTED': () => ({
    json: rewriteInsertedEvent(
      (context) => {
        let withoutParams = false;
        forEachObject(v4Expression(context.original), (object) => {
          if (isInsert(object) && object.action === 'create' && !('params' in object)) withoutParams = true;
        });
        return withoutParams;
      },
      (event) => {
        if (
          event.action !== 'create' ||
          !('data' in event) ||
          (event.data !== null && (!isJsonObject(event.data) || Object.keys(event.data).length > 0))
        )
          return false;
        delete event.data;
        return true;
      },
    ),
  }),
  'HISTW-MISSING-COLLECTION-ARGUMENT': onJson(
    (body, context) =>
      (expressionUses(context.original, 'insert') || expressionUses(context.original, 'remove')) &&
      v4Errors(body).some((error) => error.code === 'invalid ref'),
    (body) => {
      for (const error of v4Errors(body)) if (error.code === 'invalid ref') error.code = 'invalid argument';
      return true;
    },
  ),
  'HISTW-WRITE-IMPLIES-HISTORY-WRITE': onExpression((expression) => {
    let changed = 0;
    forEachObject(expression, (object) => {
      if (!('create_role' in object)) return;
      forEachObject(object.create_role, (actions) => {
        if (actions.write === true && !('history_write' in actions)) {
          actions.history_write = true;
          changed++;
        }
      });
    });
    return changed;
  }),
  'HISTW-REFUSED-REF-POSITION': onJson(
    (body) =>
      v4Errors(body).some(
        (error) => typeof error.description === 'string' && /^Cannot (insert|remove) event for specified ref\.$/.test(error.description),
      ),
    (body) => {
      for (const error of v4Errors(body)) {
        const match = typeof error.description === 'string' ? /^Cannot (insert|remove) event/.exec(error.description) : null;
        if (match) error.position = [match[1]];
      }
      return true;
    },
  ),
};
