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
  v4Expression,
  v4Resource,
  withJsonBody,
  withStatus,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

const NOW = (): JsonObject => ({ now: null });

/** True when `expression` is `Now()` or `Time("now")`: an At of it reads the present. */
const isPresent = (expression: unknown): boolean =>
  isJsonObject(expression) && (('now' in expression && expression.now === null) || expression.time === 'now');

/** Every At call of the expression, outermost first. */
function atCalls(expression: unknown): JsonObject[] {
  const found: JsonObject[] = [];
  forEachObject(expression, (object) => {
    if ('at' in object && 'expr' in object) found.push(object);
  });
  return found;
}

/** A request hook that edits each At call of another time than the present; `edit` answers how many changes it made. */
const editPastAtCalls = (edit: (call: JsonObject) => number): Fault['apply'] =>
  onExpression((expression) => atCalls(expression).reduce((n, call) => n + (isPresent(call.at) ? 0 : edit(call)), 0));

/** True for an event (or event cursor) as the service renders it: `ts`, an event action, and usually its document. */
const isEvent = (value: unknown): value is JsonObject =>
  isJsonObject(value) && 'ts' in value && ['create', 'update', 'delete', 'add', 'remove'].includes(value.action as string);

/** A JSON hook editing each object of the resource answering a query that reads events (`Events(…)` or Paginate with `events`). */
const onEventAnswers = (edit: (object: JsonObject) => number): Fault['apply'] =>
  onJson(
    (body, context) => context.status === 200 && expressionUses(context.original, 'events') && v4Resource(body) !== undefined,
    (body) => editObjects(v4Resource(body), edit),
  );

/** A page of events: `data` an array whose items are events. */
const eventPage = (object: JsonObject): JsonObject[] | undefined =>
  Array.isArray(object.data) && object.data.length > 0 && object.data.every(isEvent) ? object.data : undefined;

/** A Paginate of an events set. */
const pagesEvents = (object: JsonObject): boolean => isJsonObject(object.paginate) && 'events' in object.paginate;

export const code: FaultCode = {
  'HIST-AT-IGNORED': onExpression((expression) => {
    const calls = atCalls(expression)
      .reverse()
      .filter((call) => isJsonObject(call.expr) && !isPresent(call.at));
    for (const call of calls) replaceObject(call, call.expr as JsonObject);
    return calls.length;
  }),
  'HIST-AT-SETS-PRESENT': editPastAtCalls((call) =>
    editObjects(call.expr, (object) => {
      if (!('paginate' in object) || 'ts' in object) return false;
      object.ts = NOW();
      return true;
    }),
  ),
  'HIST-AT-WRITES-ALLOWED': editPastAtCalls((call) => {
    if (editObjects(call.expr, (object) => ['create', 'update', 'replace', 'delete'].some((form) => form in object)) === 0) return 0;
    call.at = NOW();
    return 1;
  }),
  'HIST-AT-NOW-MOVES': editPastAtCalls((call) => {
    if (!isJsonObject(call.expr) || !('now' in call.expr)) return 0;
    call.expr = { epoch: isJsonObject(call.at) ? { to_micros: call.at } : call.at, unit: 'microseconds' };
    return 1;
  }),
  'HIST-AT-OUTER-WINS': editPastAtCalls((outer) =>
    atCalls(outer.expr).reduce((n, inner) => {
      if (inner.at === outer.at) return n;
      inner.at = outer.at;
      return n + 1;
    }, 0),
  ),
  'HIST-AT-ANY-TIME': editPastAtCalls((call) => {
    if (typeof call.at !== 'string' && typeof call.at !== 'boolean' && call.at !== null) return 0;
    call.at = NOW();
    return 1;
  }),
  'HIST-EVENTS-NEWEST-FIRST': onEventAnswers((object) => {
    const data = eventPage(object);
    if (data === undefined || data.length < 2) return 0;
    data.reverse();
    return 1;
  }),
  'HIST-EVENTS-WHOLE-DATA': onEventAnswers((object) => {
    let changed = 0;
    let current: JsonObject | undefined;
    for (const event of eventPage(object) ?? []) {
      if (event.action === 'create' && isJsonObject(event.data)) current = { ...event.data };
      else if (event.action === 'update' && current !== undefined && isJsonObject(event.data)) {
        current = { ...current, ...event.data };
        event.data = { ...current };
        changed++;
      } else if (event.action === 'delete') current = undefined;
    }
    return changed;
  }),
  'HIST-EVENTS-DELETE-EMPTY': onEventAnswers((object) => {
    if (!isEvent(object) || object.action !== 'delete' || !('data' in object) || object.data !== null) return 0;
    object.data = {};
    return 1;
  }),
  'HIST-EVENTS-INSTANCE-KEY': onEventAnswers((object) => {
    if (!isEvent(object) || !('document' in object)) return 0;
    const { document, ...rest } = object;
    replaceObject(object, { ...rest, instance: document });
    return 1;
  }),
  'HIST-EVENTS-TS-CURSORS': onEventAnswers((object) => {
    if (!Array.isArray(object.data)) return 0;
    const sides = (['before', 'after'] as const).filter((side) => isEvent(object[side]) && 'document' in (object[side] as JsonObject));
    for (const side of sides) object[side] = (object[side] as JsonObject).ts!;
    return sides.length;
  }),
  'HIST-EVENTS-NO-SNAPSHOT': onObjects((object) => {
    if (!pagesEvents(object)) return false;
    object.ts = NOW();
    return true;
  }),
  'HIST-EVENTS-FLAG-ON-EVENTS-REFUSED': onResponse(
    (res, ctx) =>
      res.status === 200 && editObjects(v4Expression(ctx.original), (object) => pagesEvents(object) && object.events === true) > 0,
    (res) => {
      const error = { position: ['paginate'], code: 'invalid argument', description: 'Set does not support events history.' };
      return withStatus(withJsonBody(res, { errors: [error] }), 400);
    },
  ),
  'HIST-EVENTS-TS-CURSOR-EXCLUSIVE': onObjects((object) => {
    if (!pagesEvents(object) || !isJsonInteger(object.after)) return false;
    object.after = jsonInt(BigInt(String(object.after)) + 1n);
    return true;
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
  'HIST-EVENT-DOCUMENT-KEY-IN-EVERY-VERSION': onJson(
    (_body, context) => context.status === 200 && /^2\.[1-6]$/.test(apiVersion(context.original) ?? ''),
    (body) => renameKeys(body, 'instance', 'document', (object) => 'action' in object && 'ts' in object),
  ),
};
