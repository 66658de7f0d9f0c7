// Faults against At (FN-HIST; spec/requirements/functions-history.md): each is a server that gets one rule of reading
// at an earlier time wrong the way an implementation plausibly would — At ignored, only documents read historically,
// writes let through, the wrong error code, Now() moved to the At's time, the outer At winning, any value taken as
// a time — made by rewriting the expression the suite sends or the error it gets back.
import type { Fault } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import { apiVersion, bodyJson, expressionUses, renameKeys, replaceObject, rewriteExpression, rewriteJson, rewriteResponse, v4Errors, v4Expression, v4Resource, withJsonBody, withStatus } from './lib/rewrites.js';

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

export const HISTORY_FUNCTION_FAULTS: readonly Fault[] = [
  {
    id: 'HIST-AT-IGNORED',
    title: 'At evaluates its expression at the present',
    breaks: ['FN-HIST-001', 'FN-HIST-002', 'FN-HIST-003'],
    area: 'core',
    description: 'At(ts, Get(ref)) answers the current version of the document, as a server that parses At but never changes the read time would.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        for (const call of atCalls(expression).reverse()) {
          if (!isJsonObject(call.expr) || isPresent(call.at)) continue;
          replaceObject(call, call.expr);
          changed++;
        }
        return changed;
      }),
    }),
  },
  {
    id: 'HIST-AT-SETS-PRESENT',
    title: 'Paginate inside At reads the current set',
    breaks: ['FN-HIST-003'],
    area: 'core',
    description: 'Paginate(Match(...)) inside At(ts, …) holds the entries of now, as a server that applies At to document reads only would.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        for (const call of atCalls(expression)) {
          if (isPresent(call.at)) continue;
          forEachObject(call.expr, (object) => {
            if (!('paginate' in object) || 'ts' in object) return;
            object.ts = NOW();
            changed++;
          });
        }
        return changed;
      }),
    }),
  },
  {
    id: 'HIST-AT-WRITES-ALLOWED',
    title: 'Writes inside At of an earlier time are performed',
    breaks: ['FN-HIST-005'],
    area: 'core',
    description: 'At(ts, Update(ref, …)) updates the document now, where the service refuses it with invalid write time.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        for (const call of atCalls(expression)) {
          if (isPresent(call.at) || !containsForm(call.expr, WRITE_FORMS)) continue;
          call.at = NOW();
          changed++;
        }
        return changed;
      }),
    }),
  },
  {
    id: 'HIST-AT-WRITE-CODE',
    title: 'A write inside At is refused as an invalid expression',
    breaks: ['FN-HIST-005'],
    area: 'core',
    description: 'At(ts, Update(ref, …)) answers 400 invalid expression, where the service answers invalid write time.',
    apply: () => ({
      json: rewriteJson(
        (body) => v4Errors(body).some((error) => error.code === 'invalid write time'),
        (body) => {
          for (const error of v4Errors(body)) if (error.code === 'invalid write time') error.code = 'invalid expression';
          return true;
        },
      ),
    }),
  },
  {
    id: 'HIST-AT-NOW-MOVES',
    title: 'Now() inside At answers the time of the At',
    breaks: ['FN-HIST-007'],
    area: 'core',
    description: 'Now() inside At(ts, …) answers ts, where the service answers the transaction time.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        for (const call of atCalls(expression)) {
          if (isPresent(call.at)) continue;
          if (isJsonObject(call.expr) && 'now' in call.expr) {
            call.expr = { epoch: isJsonObject(call.at) ? { to_micros: call.at } : call.at, unit: 'microseconds' };
            changed++;
          }
        }
        return changed;
      }),
    }),
  },
  {
    id: 'HIST-AT-OUTER-WINS',
    title: 'An outer At overrides an inner one',
    breaks: ['FN-HIST-004', 'FN-HIST-006'],
    area: 'core',
    description: 'At(t2, At(t1, Get(ref))) reads at t2, and At(t1, At(Now(), Update(…))) is refused, as a server that keeps the first read time it was given would.',
    apply: () => ({
      request: rewriteExpression((expression) => {
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
    }),
  },
  {
    id: 'HIST-AT-ANY-TIME',
    title: 'At takes any value as the present',
    breaks: ['FN-HIST-008'],
    area: 'core',
    description: 'At("yesterday", expr) evaluates expr at the present, where the service answers Time expected, String provided.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        for (const call of atCalls(expression)) {
          const value = call.at;
          if (typeof value === 'string' || typeof value === 'boolean' || value === null) {
            call.at = NOW();
            changed++;
          }
        }
        return changed;
      }),
    }),
  },
  {
    id: 'HIST-EVENTS-NEWEST-FIRST',
    title: 'Events pages list the newest event first',
    breaks: ['FN-HIST-011', 'FN-HIST-013', 'FN-HIST-018'],
    area: 'core',
    description: 'Paginate(Events(ref)) answers the history newest first, as a server that walks versions from the latest would.',
    apply: () => ({
      json: rewriteEventAnswers((object) => {
        const data = eventPage(object);
        if (data === undefined || data.length < 2) return 0;
        data.reverse();
        return 1;
      }),
    }),
  },
  {
    id: 'HIST-EVENTS-WHOLE-DATA',
    title: 'An update event carries the whole document instead of what changed',
    breaks: ['FN-HIST-012'],
    area: 'core',
    description: 'Each update event\'s data is the data of the create before it merged with the changes (unchanged fields kept, removed ones null), as a server that renders every version\'s data would.',
    apply: () => ({
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
  },
  {
    id: 'HIST-EVENTS-DELETE-EMPTY',
    title: 'A delete event carries an empty object as data',
    breaks: ['FN-HIST-012'],
    area: 'core',
    description: 'A delete event\'s data is {} where the service answers null.',
    apply: () => ({
      json: rewriteEventAnswers((object) => {
        if (!isEventObject(object) || object.action !== 'delete' || !('data' in object) || object.data !== null) return 0;
        object.data = {};
        return 1;
      }),
    }),
  },
  {
    id: 'HIST-EVENTS-INSTANCE-KEY',
    title: 'Events name their document `instance` in API 4',
    breaks: ['FN-HIST-011', 'FN-HIST-013', 'FN-HIST-018'],
    area: 'core',
    description: 'Events and event cursors carry the document under `instance`, the key of API versions before 2.7.',
    apply: () => ({
      json: rewriteEventAnswers((object) => {
        if (!isEventObject(object) || !('document' in object)) return 0;
        const { document, ...rest } = object;
        replaceObject(object, { ...rest, instance: document });
        return 1;
      }),
    }),
  },
  {
    id: 'HIST-EVENTS-TS-CURSORS',
    title: 'Event pages answer bare timestamps as cursors',
    breaks: ['FN-HIST-013', 'FN-HIST-016'],
    area: 'core',
    description: 'A page of events answers its before and after cursors as the event\'s ts alone, as a server paging by time only would.',
    apply: () => ({
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
  },
  {
    id: 'HIST-EVENTS-FLAG-IGNORED',
    title: 'Paginate ignores events: true',
    breaks: ['FN-HIST-016'],
    area: 'core',
    description: 'Paginate(ref, {events: true}) pages the ref as a set instead of its history, as a server without the option would.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if ('paginate' in object && object.events === true) {
            object.events = false;
            changed++;
          }
        });
        return changed;
      }),
    }),
  },
  {
    id: 'HIST-EVENTS-NO-SNAPSHOT',
    title: 'Events ignore Paginate\'s ts and At',
    breaks: ['FN-HIST-017'],
    area: 'core',
    description: 'Paginate(Events(ref), {ts}) and At(ts, Paginate(Events(ref))) answer the whole history, later events included.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('paginate' in object) || !isJsonObject(object.paginate) || !('events' in object.paginate)) return;
          object.ts = NOW();
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'HIST-EVENTS-NESTED-ALLOWED',
    title: 'Events of an events set is refused as an invalid expression',
    breaks: ['FN-HIST-020'],
    area: 'core',
    description: 'Events(Events(ref)) answers invalid expression, where the service answers invalid argument: Set does not support events history.',
    apply: () => ({
      json: rewriteJson(
        (body) => v4Errors(body).some((error) => error.description === 'Set does not support events history.'),
        (body) => {
          for (const error of v4Errors(body)) if (error.description === 'Set does not support events history.') error.code = 'invalid expression';
          return true;
        },
      ),
    }),
  },
  {
    id: 'HIST-EVENTS-FLAG-ON-EVENTS-REFUSED',
    title: 'Paginate with events: true of an events set is refused',
    breaks: ['FN-HIST-020'],
    area: 'core',
    description: 'Paginate(Events(ref), {events: true}) answers invalid argument "Set does not support events history." at ["paginate"], as a server that takes the history of every set it is asked to would, where the real service pages the events set as it is.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          let flagged = false;
          forEachObject(v4Expression(ctx.original), (object) => {
            if ('paginate' in object && object.events === true && isJsonObject(object.paginate) && 'events' in object.paginate) flagged = true;
          });
          return res.status === 200 && flagged;
        },
        (res) => withStatus(withJsonBody(res, { errors: [{ position: ['paginate'], code: 'invalid argument', description: 'Set does not support events history.' }] }), 400),
      ),
    }),
  },
  {
    id: 'HIST-SET-EVENT-DATA-ARRAY-IN-QUERY',
    title: 'A query reads a one-value set event\'s data as an array',
    breaks: ['FN-HIST-018'],
    area: 'core',
    description: 'Select("data", e) of a set event of an index with one value answers the array [v] as the event is shown, where the real service answers v, so Reduce(Add(acc, Select("data", e))) over Events(Match(…)) fails with Number expected, Array provided.',
    apply: () => ({ failpoints: ['SET-EVENT-DATA-AS-ARRAY'] }),
  },
  {
    id: 'HIST-EVENTS-COMBINED-WITH-SNAPSHOT',
    title: 'An events set combines with a snapshot set',
    breaks: ['FN-HIST-023'],
    area: 'core',
    description: 'Paginate(Union(Events(ref), Singleton(ref))) answers a page mixing events and refs, where the real service answers invalid argument "Sets are not compatible.".',
    apply: () => ({
      response: rewriteResponse(
        (res) => res.status === 400 && v4Errors(bodyJson(res)).some((error) => error.description === 'Sets are not compatible.'),
        (res) => withStatus(withJsonBody(res, { resource: { data: [] } }), 200),
      ),
    }),
  },
  {
    id: 'HIST-EVENTS-TS-CURSOR-EXCLUSIVE',
    title: 'An after cursor given as a time skips the events of that time',
    breaks: ['FN-HIST-014'],
    area: 'core',
    description: 'Paginate(Events(ref), {after: ts}) starts after the events at ts, as a server comparing the time with the whole event would.',
    apply: () => ({
      request: rewriteExpression((expression) => {
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
    }),
  },
  {
    id: 'HIST-EVENTS-SET-SHAPE',
    title: 'Events of a ref is rendered as the events of its Singleton',
    breaks: ['FN-HIST-010'],
    area: 'core',
    description: 'Events(ref) answers {"@set": {"events": {"@set": {"singleton": ref}}}}, where the service keeps the ref itself.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 200 && expressionUses(context.original, 'events'),
        (body) => {
          let changed = 0;
          forEachObject(v4Resource(body) ?? body, (object) => {
            const set = object['@set'];
            if (!isJsonObject(set) || !isJsonObject(set.events) || !('@ref' in set.events)) return;
            set.events = { '@set': { singleton: set.events } };
            changed++;
          });
          return changed;
        },
      ),
    }),
  },
  {
    id: 'HIST-EVENTS-CURSOR-AS-TUPLE',
    title: 'A malformed event cursor is reported as a malformed tuple',
    breaks: ['FN-HIST-021'],
    area: 'core',
    description: 'A string cursor for an events set answers "Array expected, String provided.", as a server that reads every cursor as an index tuple would.',
    apply: () => ({
      json: rewriteJson(
        (body) => v4Errors(body).some((error) => typeof error.description === 'string' && error.description.startsWith('Object, Integer, Time, or Date expected')),
        (body) => {
          for (const error of v4Errors(body)) {
            if (typeof error.description === 'string' && error.description.startsWith('Object, Integer, Time, or Date expected')) {
              error.description = error.description.replace('Object, Integer, Time, or Date expected', 'Array expected');
            }
          }
          return true;
        },
      ),
    }),
  },
  {
    id: 'HIST-EVENT-DOCUMENT-KEY-IN-EVERY-VERSION',
    title: 'Events name their document `document` in every API version',
    breaks: ['FN-HIST-019'],
    area: 'core',
    description: 'Events read with an API version before 2.7 still name their document under `document` instead of `instance`.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 200 && /^2\.[1-6]$/.test(apiVersion(context.original) ?? ''),
        (body) => renameKeys(body, 'instance', 'document', (object) => 'action' in object && 'ts' in object),
      ),
    }),
  },
  {
    id: 'HIST-EVENTS-DENIED-AS-EMPTY',
    title: 'Events the caller may not read answer an empty page',
    breaks: ['FN-HIST-022'],
    area: 'core',
    description: 'A Paginate of Events without `history_read` answers a page with no events instead of 403, as from a server that filters what a caller may not see.',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => res.status === 403 && expressionUses(ctx.original, 'events') && expressionUses(ctx.original, 'paginate'),
        (res) => withStatus(withJsonBody(res, { resource: { data: [] } }), 200),
      ),
    }),
  },
];
