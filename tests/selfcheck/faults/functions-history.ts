// The faults of spec/requirements/functions-history.md that are code; their rows (ids, titles, what they break) are in functions-history.json.
import type { Fault } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import {
  apiVersion,
  editObjects,
  expressionUses,
  onExpression,
  onJson,
  onObjects,
  onResponse,
  renameKeys,
  replaceObject,
  rewriteJson,
  v4Errors,
  v4Expression,
  v4Resource,
  withJsonBody,
  withStatus,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

const WRITE_FORMS = ['create', 'update', 'replace', 'delete'];

const NOW = (): JsonObject => ({ now: null });

const isAt = (object: JsonObject): boolean => 'at' in object && 'expr' in object;

/** True when `expression` is `Now()` or `Time("now")`: an At of it reads the present. */
function isPresent(expression: unknown): boolean {
  return isJsonObject(expression) && (('now' in expression && expression.now === null) || expression.time === 'now');
}

/** Every At call of the expression, outermost first. */
function atCalls(expression: unknown): JsonObject[] {
  const found: JsonObject[] = [];
  forEachObject(expression, (object) => {
    if (isAt(object)) found.push(object);
  });
  return found;
}

/** A request hook that edits each At call of the expression; `edit` answers how many changes it made. */
const editAtCalls = (edit: (call: JsonObject) => number): Fault['apply'] =>
  onExpression((expression) => atCalls(expression).reduce((n, call) => n + edit(call), 0));

function containsForm(expression: unknown, forms: readonly string[]): boolean {
  let found = false;
  forEachObject(expression, (object) => {
    if (forms.some((form) => form in object)) found = true;
  });
  return found;
}

const EVENT_ACTIONS = ['create', 'update', 'delete', 'add', 'remove'];

/** True for an event (or event cursor) as the service renders it: `ts`, an event action, and usually its document. */
function isEventObject(value: unknown): value is JsonObject {
  return isJsonObject(value) && 'ts' in value && typeof value.action === 'string' && EVENT_ACTIONS.includes(value.action);
}

/** A JSON hook for the answers to expressions that read events (`Events(…)` or Paginate with `events`). */
function rewriteEventAnswers(rewrite: (resource: JsonObject) => number): ReturnType<typeof rewriteJson> {
  return rewriteJson(
    (body, context) => context.status === 200 && expressionUses(context.original, 'events') && v4Resource(body) !== undefined,
    (body) => {
      let changed = 0;
      forEachObject(v4Resource(body), (object) => {
        changed += rewrite(object);
      });
      return changed;
    },
  );
}

/** A page of events: `data` an array whose items are events. */
function eventPage(object: JsonObject): unknown[] | undefined {
  return Array.isArray(object.data) && object.data.length > 0 && object.data.every(isEventObject) ? object.data : undefined;
}

export const code: FaultCode = {
  'HIST-AT-IGNORED': onExpression((expression) => {
    let changed = 0;
    for (const call of atCalls(expression).reverse()) {
      if (!isJsonObject(call.expr) || isPresent(call.at)) continue;
      replaceObject(call, call.expr);
      changed++;
    }
    return changed;
  }),
  'HIST-AT-SETS-PRESENT': editAtCalls((call) =>
    isPresent(call.at)
      ? 0
      : editObjects(call.expr, (object) => {
          if (!('paginate' in object) || 'ts' in object) return false;
          object.ts = NOW();
          return true;
        }),
  ),
  'HIST-AT-WRITES-ALLOWED': editAtCalls((call) => {
    if (isPresent(call.at) || !containsForm(call.expr, WRITE_FORMS)) return 0;
    call.at = NOW();
    return 1;
  }),
  'HIST-AT-NOW-MOVES': editAtCalls((call) => {
    if (isPresent(call.at) || !isJsonObject(call.expr) || !('now' in call.expr)) return 0;
    call.expr = { epoch: isJsonObject(call.at) ? { to_micros: call.at } : call.at, unit: 'microseconds' };
    return 1;
  }),
  'HIST-AT-OUTER-WINS': onExpression((expression) => {
    let changed = 0;
    for (const outer of atCalls(expression)) {
      if (isPresent(outer.at)) continue;
      for (const inner of atCalls(outer.expr)) {
        if (inner.at === outer.at) continue;
        inner.at = outer.at;
        changed++;
      }
    }
    return changed;
  }),
  'HIST-AT-ANY-TIME': editAtCalls((call) => {
    if (typeof call.at !== 'string' && typeof call.at !== 'boolean' && call.at !== null) return 0;
    call.at = NOW();
    return 1;
  }),
  'HIST-EVENTS-NEWEST-FIRST': () => ({
    json: rewriteEventAnswers((object) => {
      const data = eventPage(object);
      if (data === undefined || data.length < 2) return 0;
      data.reverse();
      return 1;
    }),
  }),
  'HIST-EVENTS-WHOLE-DATA': () => ({
    json: rewriteEventAnswers((object) => {
      const data = eventPage(object) as JsonObject[] | undefined;
      if (data === undefined) return 0;
      let changed = 0;
      let current: JsonObject | undefined;
      for (const event of data) {
        if (event.action === 'create' && isJsonObject(event.data)) current = { ...event.data };
        else if (event.action === 'update' && current !== undefined && isJsonObject(event.data)) {
          current = { ...current, ...event.data };
          event.data = { ...current };
          changed++;
        } else if (event.action === 'delete') current = undefined;
      }
      return changed;
    }),
  }),
  'HIST-EVENTS-DELETE-EMPTY': () => ({
    json: rewriteEventAnswers((object) => {
      if (!isEventObject(object) || object.action !== 'delete' || !('data' in object) || object.data !== null) return 0;
      object.data = {};
      return 1;
    }),
  }),
  'HIST-EVENTS-INSTANCE-KEY': () => ({
    json: rewriteEventAnswers((object) => {
      if (!isEventObject(object) || !('document' in object)) return 0;
      const { document, ...rest } = object;
      replaceObject(object, { ...rest, instance: document });
      return 1;
    }),
  }),
  'HIST-EVENTS-TS-CURSORS': () => ({
    json: rewriteEventAnswers((object) => {
      if (!Array.isArray(object.data)) return 0;
      let changed = 0;
      for (const side of ['before', 'after'] as const) {
        const cursor = object[side];
        if (isEventObject(cursor) && 'document' in cursor) {
          object[side] = cursor.ts;
          changed++;
        }
      }
      return changed;
    }),
  }),
  'HIST-EVENTS-NO-SNAPSHOT': onObjects((object) => {
    if (!('paginate' in object) || !isJsonObject(object.paginate) || !('events' in object.paginate)) return false;
    object.ts = NOW();
    return true;
  }),
  'HIST-EVENTS-FLAG-ON-EVENTS-REFUSED': onResponse(
    (res, ctx) => {
      let flagged = false;
      forEachObject(v4Expression(ctx.original), (object) => {
        if ('paginate' in object && object.events === true && isJsonObject(object.paginate) && 'events' in object.paginate) flagged = true;
      });
      return res.status === 200 && flagged;
    },
    (res) =>
      withStatus(
        withJsonBody(res, {
          errors: [{ position: ['paginate'], code: 'invalid argument', description: 'Set does not support events history.' }],
        }),
        400,
      ),
  ),
  'HIST-EVENTS-TS-CURSOR-EXCLUSIVE': onExpression((expression) => {
    let changed = 0;
    forEachObject(expression, (object) => {
      if (!('paginate' in object) || !isJsonObject(object.paginate) || !('events' in object.paginate)) return;
      if (isJsonInteger(object.after)) {
        object.after = jsonInt(BigInt(String(object.after)) + 1n);
        changed++;
      }
    });
    return changed;
  }),
  'HIST-EVENTS-SET-SHAPE': onJson(
    (_body, context) => context.status === 200 && expressionUses(context.original, 'events'),
    (body) =>
      editObjects(v4Resource(body) ?? body, (object) => {
        const set = object['@set'];
        if (!isJsonObject(set) || !isJsonObject(set.events) || !('@ref' in set.events)) return false;
        set.events = { '@set': { singleton: set.events } };
        return true;
      }),
  ),
  'HIST-EVENTS-CURSOR-AS-TUPLE': onJson(
    (body) =>
      v4Errors(body).some(
        (error) => typeof error.description === 'string' && error.description.startsWith('Object, Integer, Time, or Date expected'),
      ),
    (body) => {
      for (const error of v4Errors(body)) {
        if (typeof error.description === 'string' && error.description.startsWith('Object, Integer, Time, or Date expected')) {
          error.description = error.description.replace('Object, Integer, Time, or Date expected', 'Array expected');
        }
      }
      return true;
    },
  ),
  'HIST-EVENT-DOCUMENT-KEY-IN-EVERY-VERSION': onJson(
    (_body, context) => context.status === 200 && /^2\.[1-6]$/.test(apiVersion(context.original) ?? ''),
    (body) => renameKeys(body, 'instance', 'document', (object) => 'action' in object && 'ts' in object),
  ),
};
