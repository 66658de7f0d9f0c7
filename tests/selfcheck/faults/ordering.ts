// The faults of spec/requirements/ordering.md that are code; their rows (ids, titles, what they break) are in ordering.json.
import { forEachObject, isJsonObject, stringifyJson, type JsonObject } from '../json-body.js';
import { createIndexParams, dropKeys, unwrapObject } from './lib/index-tracking.js';
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
