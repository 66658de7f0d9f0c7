// The faults of spec/requirements/ordering.md that are code; their rows (ids, titles, what they break) are in ordering.json.
import { forEachObject, getPath, isJsonObject, stringifyJson, type JsonObject } from '../json-body.js';
import { createIndexParams, dropKeys, IndexDefinitions, topLevelPage, unwrapObject } from './lib/index-tracking.js';
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

/** Gives `reverse: true` to the value objects without `reverse`; answers how many. */
function reverseAll(values: JsonObject[]): number {
  const plain = values.filter((value) => !('reverse' in value));
  for (const value of plain) value.reverse = true;
  return plain.length;
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
    indexValueObjects(expression).reduce((n, value) => n + dropKeys(value, ['reverse']), 0),
  ),
  'ORD-DEFAULT-DESCENDING': onExpression((expression) => reverseAll(indexValueObjects(expression))),
  'ORD-TIE-BREAK-REVERSED': () => ({ json: pageAnswer((page) => reverseTies(page.data)) }),
  'ORD-REVERSE-FLIPS-ALL-VALUES': onExpression((expression) =>
    createIndexParams(expression).reduce((n, params) => {
      const values = (Array.isArray(params.values) ? params.values : []).map(unwrapObject).filter((value) => value !== undefined);
      return n + (values.some((value) => value.reverse === true) ? reverseAll(values) : 0);
    }, 0),
  ),
};
