// The faults of spec/requirements/ordering.md that are code; their rows (ids, titles, what they break) are in ordering.json.
import { forEachObject, getPath, isJsonInteger, isJsonObject, stringifyJson, type JsonObject } from '../json-body.js';
import { createIndexParams, IndexDefinitions, topLevelPage, unwrapObject } from './lib/index-tracking.js';
import { RecordMemory, refKey } from './lib/records.js';
import { isRefEntry, pageAnswer } from './lib/pages.js';
import { onExpression } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

/** Value objects of `values` arrays in index definitions (plain or `{"object": …}` wrapped). */
function indexValueObjects(expression: unknown): JsonObject[] {
  const found: JsonObject[] = [];
  forEachObject(expression, (object) => {
    if (!Array.isArray(object.values)) return;
    for (const item of object.values) {
      const value = isJsonObject(item) && isJsonObject(item.object) ? item.object : item;
      if (isJsonObject(value) && 'field' in value) found.push(value);
    }
  });
  return found;
}

/** An index's `field` as a path: a name, or steps of names and positions. */
function fieldPath(field: unknown): (string | number)[] | undefined {
  if (typeof field === 'string') return [field];
  return Array.isArray(field) ? field.map((step) => (typeof step === 'string' ? step : Number(String(step)))) : undefined;
}

/** The first covered value of a page entry (entries of several values are arrays). */
function leadingValue(entry: unknown): unknown {
  return Array.isArray(entry) ? entry[0] : entry;
}

/** Reverses every run of consecutive entries that differ only in their trailing ref; answers how many runs. */
function reverseTies(data: unknown[]): number {
  let runs = 0;
  const prefixOf = (entry: unknown): string | undefined =>
    Array.isArray(entry) && entry.length > 1 && isRefEntry(entry[entry.length - 1]) ? stringifyJson(entry.slice(0, -1)) : undefined;
  let start = 0;
  while (start < data.length) {
    const prefix = prefixOf(data[start]);
    let end = start + 1;
    while (prefix !== undefined && end < data.length && prefixOf(data[end]) === prefix) end += 1;
    if (end - start > 1) {
      data.splice(start, end - start, ...data.slice(start, end).reverse());
      runs += 1;
    }
    start = end;
  }
  return runs;
}

/** Puts the string-valued entries of a page before its integer-valued ones, keeping every other position. */
function stringsBeforeIntegers(data: unknown[]): boolean {
  const positions = data
    .map((entry, i) => [entry, i] as const)
    .filter(([entry]) => typeof leadingValue(entry) === 'string' || isJsonInteger(leadingValue(entry)));
  const strings = positions.filter(([entry]) => typeof leadingValue(entry) === 'string').map(([entry]) => entry);
  const integers = positions.filter(([entry]) => typeof leadingValue(entry) !== 'string').map(([entry]) => entry);
  if (strings.length === 0 || integers.length === 0) return false;
  const reordered = [...strings, ...integers];
  let changed = false;
  positions.forEach(([entry, i], k) => {
    if (reordered[k] !== entry) changed = true;
    data[i] = reordered[k];
  });
  return changed;
}

export const code: FaultCode = {
  // Entries of one null run whose document lacks the covered field move after those null by other means (an array
  // holding null): a server that tells a missing value from null. Documents are known from the answers that showed them.
  'ORD-MISSING-AFTER-NULL': () => {
    const firstField = new IndexDefinitions((params) =>
      fieldPath(unwrapObject(Array.isArray(params.values) ? params.values[0] : undefined)?.field),
    );
    const documents = new RecordMemory();
    return {
      request: firstField.observe,
      json: (body, ctx) => {
        if (ctx.status < 300) documents.learn(body);
        const page = topLevelPage(body, ctx);
        const path = page === undefined ? undefined : firstField.paged(ctx.original);
        if (page === undefined || path === undefined) return undefined;
        const nulls = page.data.filter((entry) => Array.isArray(entry) && entry[0] === null);
        const lacking = nulls.filter((entry) => getPath(documents.get(refKey((entry as unknown[])[1]) ?? ''), path) === undefined);
        const reordered = [...nulls.filter((entry) => !lacking.includes(entry)), ...lacking];
        if (reordered.every((entry, i) => entry === nulls[i])) return undefined;
        let next = 0;
        page.data = page.data.map((entry) => (nulls.includes(entry) ? reordered[next++] : entry));
        return body;
      },
    };
  },
  'ORD-REVERSE-IGNORED': onExpression((expression) =>
    indexValueObjects(expression).reduce((n, value) => {
      if (!('reverse' in value)) return n;
      delete value.reverse;
      return n + 1;
    }, 0),
  ),
  'ORD-DEFAULT-DESCENDING': onExpression((expression) =>
    indexValueObjects(expression).reduce((n, value) => {
      if ('reverse' in value) return n;
      value.reverse = true;
      return n + 1;
    }, 0),
  ),
  'ORD-STRINGS-BEFORE-INTEGERS': () => ({ json: pageAnswer((page) => stringsBeforeIntegers(page.data)) }),
  'ORD-TIE-BREAK-REVERSED': () => ({ json: pageAnswer((page) => reverseTies(page.data)) }),
  'ORD-REVERSE-FLIPS-ALL-VALUES': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
      const values = (Array.isArray(params.values) ? params.values : [])
        .map(unwrapObject)
        .filter((value): value is JsonObject => value !== undefined);
      if (!values.some((value) => value.reverse === true)) return n;
      const plain = values.filter((value) => !('reverse' in value));
      for (const value of plain) value.reverse = true;
      return n + plain.length;
    }, 0),
  ),
};
