// Faults against At (FN-HIST; spec/requirements/functions-history.md): each is a server that gets one rule of reading
// at an earlier time wrong the way an implementation plausibly would — At ignored, only documents read historically,
// writes let through, the wrong error code, Now() moved to the At's time, the outer At winning, any value taken as
// a time — made by rewriting the expression the suite sends or the error it gets back.
import type { Fault } from '../fault.js';
import { forEachObject, isJsonObject, type JsonObject } from '../json-body.js';
import { replaceObject, rewriteExpression, rewriteJson, v4Errors } from './rewrites.js';

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
];
