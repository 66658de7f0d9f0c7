// Faults against Insert and Remove (FN-HISTW; spec/requirements/functions-history-writes.md): each is a server that
// gets one rule of writing history wrong the way an implementation plausibly would — an update event answered as an
// update, the time shifted, params dropped, future times accepted, Remove of a delete taking the live version, Remove
// answering a value, a delete event with empty data, refused refs reported at the ref — made by rewriting the
// expression the suite sends or the answer it gets back.
import type { Fault, JsonResponseContext } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonInt, type JsonObject } from '../json-body.js';
import { expressionUses, rewriteExpression, rewriteJson, v4Errors, v4Expression, v4Resource } from './lib/rewrites.js';

const isInsert = (object: JsonObject): boolean => 'insert' in object && 'ts' in object && 'action' in object;
const isRemove = (object: JsonObject): boolean => 'remove' in object && 'ts' in object && 'action' in object;

/** A request hook applying `rewrite` to every Insert (or Remove) call of the expression. */
function rewriteCalls(matches: (object: JsonObject) => boolean, rewrite: (call: JsonObject) => boolean): ReturnType<typeof rewriteExpression> {
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
function rewriteInsertedEvent(applies: (context: JsonResponseContext) => boolean, rewrite: (event: JsonObject) => boolean): ReturnType<typeof rewriteJson> {
  return rewriteJson(
    (body, context) => context.status === 200 && expressionUses(context.original, 'insert') && isJsonObject(v4Resource(body)) && applies(context),
    (body) => {
      const event = v4Resource(body) as JsonObject;
      return 'document' in event && typeof event.action === 'string' && rewrite(event);
    },
  );
}

export const HISTORY_WRITE_FAULTS: Fault[] = [
  {
    id: 'HISTW-UPDATE-ANSWERED-AS-UPDATE',
    title: 'Insert of an update answers an update event',
    breaks: ['FN-HISTW-002'],
    area: 'core',
    description: 'Insert(ref, ts, "update", params) answers {action: "update", …}, where the service stores and answers every live event as a create.',
    apply: () => ({
      json: rewriteInsertedEvent(
        (context) => insertsWith(v4Expression(context.original), 'update'),
        (event) => {
          if (event.action !== 'create') return false;
          event.action = 'update';
          return true;
        },
      ),
    }),
  },
  {
    id: 'HISTW-TS-OFF-BY-ONE',
    title: 'Insert writes its event a microsecond early',
    breaks: ['FN-HISTW-001', 'FN-HISTW-004', 'FN-HISTW-006'],
    area: 'core',
    description: 'Insert at an integer time T writes (and answers) the event at T - 1, as a server that converts the time with an off-by-one would.',
    apply: () => ({
      request: rewriteCalls(isInsert, (call) => {
        if (!isJsonInteger(call.ts)) return false;
        call.ts = jsonInt(BigInt(String(call.ts)) - 1n);
        return true;
      }),
    }),
  },
  {
    id: 'HISTW-PARAMS-IGNORED',
    title: 'Insert ignores its params',
    breaks: ['FN-HISTW-001', 'FN-HISTW-002', 'FN-HISTW-005', 'FN-HISTW-006', 'FN-HISTW-007'],
    area: 'core',
    description: 'Insert(ref, ts, "create", {data: …}) stores an event with empty data, as a server that reads only the first three arguments would.',
    apply: () => ({
      request: rewriteCalls(isInsert, (call) => {
        if (!('params' in call) || call.params === null) return false;
        delete call.params;
        return true;
      }),
    }),
  },
  {
    id: 'HISTW-INSERTED-LISTED-AS-CREATE',
    title: 'A live version inserted after a live one is listed as a create',
    breaks: ['FN-HISTW-005'],
    area: 'core',
    description: 'Events lists a live version that Insert stored after a live one as a create with its whole data, and the next version unchanged, where the real service re-labels the history: every live version after a live one is an update holding what changed.',
    apply: () => ({ failpoints: ['HISTW-INSERTED-LISTED-AS-CREATE'] }),
  },
  {
    id: 'HISTW-FUTURE-ACCEPTED',
    title: 'Insert at a later time than the transaction writes at the transaction time',
    breaks: ['FN-HISTW-008'],
    area: 'core',
    description: 'Insert at a time computed after Now() is written at Now(), where the service answers invalid write time.',
    apply: () => ({
      request: rewriteCalls(isInsert, (call) => {
        if (!isJsonObject(call.ts) || !('time_add' in call.ts)) return false;
        call.ts = { now: null };
        return true;
      }),
    }),
  },
  {
    id: 'HISTW-REMOVE-IGNORES-KIND',
    title: 'Remove of a delete takes out the live version at that time',
    breaks: ['FN-HISTW-010', 'FN-HISTW-011'],
    area: 'core',
    description: 'Remove(ref, ts, "delete") removes a live version at ts (and not the delete), as a server that treats every action as the same kind would.',
    apply: () => ({
      request: rewriteCalls(isRemove, (call) => {
        if (call.action !== 'delete') return false;
        call.action = 'create';
        return true;
      }),
    }),
  },
  {
    id: 'HISTW-REMOVE-ANSWERS-TRUE',
    title: 'Remove answers true',
    breaks: ['FN-HISTW-010', 'FN-HISTW-011', 'FN-HISTW-012'],
    area: 'core',
    description: 'Remove answers true (whether the call succeeded), where the service answers null.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 200 && expressionUses(context.original, 'remove') && isJsonObject(body) && 'resource' in body && body.resource === null,
        (body) => {
          (body as JsonObject).resource = true;
          return true;
        },
      ),
    }),
  },
  {
    id: 'HISTW-DELETE-EMPTY-DATA',
    title: 'An inserted delete answers empty data',
    breaks: ['FN-HISTW-003'],
    area: 'core',
    description: 'Insert(ref, ts, "delete") answers {action: "delete", data: {}}, where the service answers data null.',
    apply: () => ({
      json: rewriteInsertedEvent(
        () => true,
        (event) => {
          if (event.action !== 'delete' || event.data !== null) return false;
          event.data = {};
          return true;
        },
      ),
    }),
  },
  {
    id: 'HISTW-NO-PARAMS-DATA-OMITTED',
    title: 'An inserted create without params answers an event without data',
    breaks: ['FN-HISTW-009'],
    area: 'core',
    description: 'Insert(ref, ts, "create") without params answers {ts, action: "create", document} with no data field, where the service answers data null (a server may answer {}).',
    apply: () => ({
      json: rewriteInsertedEvent(
        (context) => {
          let withoutParams = false;
          forEachObject(v4Expression(context.original), (object) => {
            if (isInsert(object) && object.action === 'create' && !('params' in object)) withoutParams = true;
          });
          return withoutParams;
        },
        (event) => {
          if (event.action !== 'create' || !('data' in event) || (event.data !== null && (!isJsonObject(event.data) || Object.keys(event.data).length > 0))) return false;
          delete event.data;
          return true;
        },
      ),
    }),
  },
  {
    id: 'HISTW-MISSING-COLLECTION-ARGUMENT',
    title: 'A document of a missing collection is an invalid argument',
    breaks: ['FN-HISTW-014'],
    area: 'core',
    description: 'Insert or Remove of a document of a collection that does not exist answers invalid argument, where the service answers invalid ref.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => (expressionUses(context.original, 'insert') || expressionUses(context.original, 'remove')) && v4Errors(body).some((error) => error.code === 'invalid ref'),
        (body) => {
          for (const error of v4Errors(body)) if (error.code === 'invalid ref') error.code = 'invalid argument';
          return true;
        },
      ),
    }),
  },
  {
    id: 'HISTW-WRITE-IMPLIES-HISTORY-WRITE',
    title: 'The write privilege is enough to write history',
    breaks: ['FN-HISTW-015'],
    area: 'core',
    description: 'A role granting write on a collection may Insert and Remove events of its documents, as a server that checks write instead of history_write would.',
    apply: () => ({
      request: rewriteExpression((expression) => {
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
    }),
  },
  {
    id: 'HISTW-REFUSED-REF-POSITION',
    title: 'A ref that cannot have history is reported at the ref',
    breaks: ['FN-HISTW-013'],
    area: 'core',
    description: 'Insert of a collection ref answers invalid argument at ["insert"] (Remove at ["remove"]), where the service reports it at the form.',
    apply: () => ({
      json: rewriteJson(
        (body) => v4Errors(body).some((error) => typeof error.description === 'string' && /^Cannot (insert|remove) event for specified ref\.$/.test(error.description)),
        (body) => {
          for (const error of v4Errors(body)) {
            const match = typeof error.description === 'string' ? /^Cannot (insert|remove) event/.exec(error.description) : null;
            if (match) error.position = [match[1]];
          }
          return true;
        },
      ),
    }),
  },
  {
    id: 'HISTW-PREDICATE-GETS-REF-ONLY',
    title: 'A history_write predicate gets the ref only',
    breaks: ['FN-HISTW-017'],
    area: 'core',
    description: 'A history_write predicate is applied to the document ref alone, as a read or delete predicate is, where the real service passes [ref, ts, action, fields] of the edit.',
    apply: () => ({ failpoints: ['HISTORY-WRITE-PREDICATE-REF-ONLY'] }),
  },
];
