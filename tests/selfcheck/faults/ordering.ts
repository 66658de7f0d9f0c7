// The faults of spec/requirements/ordering.md that are code; their rows (ids, titles, what they break) are in ordering.json.
import type { Fault } from '../fault.js';
import { forEachObject, getPath, isJsonInteger, isJsonObject, stringifyJson, type JsonObject } from '../json-body.js';
import { resortPage, type OrderMistake } from './lib/entry-order.js';
import { createIndexParams, hasCursor, observingDocuments, observingIndexes, topLevelPage, unwrapObject } from './lib/index-tracking.js';
import { isRefEntry, pageAnswer } from './lib/pages.js';
import { onExpression, rewriteJson, v4Resource } from './lib/rewrites.js';
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

/**
 * Orders the pages of indexes created in the same run with a comparator making `mistake`; the index definitions are
 * read from the `create_index` requests the proxy relays.
 */
const misordered =
  (mistake: OrderMistake): Fault['apply'] =>
  () =>
    observingIndexes((indexes) => ({
      json: rewriteJson(
        (body, ctx) => topLevelPage(body, ctx) !== undefined && indexes.pagedIndex(ctx.original) !== undefined,
        (body, ctx) => resortPage(v4Resource(body)!.data as unknown[], indexes.pagedIndex(ctx.original)!.index, mistake),
      ),
    }));

export const code: FaultCode = {
  'ORD-INTEGERS-AS-TEXT': misordered({ integersAsText: true }),
  'ORD-DECIMALS-AS-TEXT': misordered({ decimalsAsText: true }),
  'ORD-STRINGS-BY-CODE-POINT': misordered({ stringsByCodePoint: true }),
  'ORD-ARRAYS-BY-LENGTH': misordered({ arraysByLengthFirst: true }),
  'ORD-OBJECTS-BY-KEY-COUNT': misordered({ objectsByKeyCountFirst: true }),
  'ORD-TIMES-AS-TEXT': misordered({ timesAsText: true }),
  'ORD-TRUE-BEFORE-FALSE': misordered({ trueBeforeFalse: true }),
  'ORD-REF-IDS-AS-TEXT': misordered({ refIdsAsText: true }),
  'ORD-REFS-BY-COLLECTION-FIRST': misordered({ refsByCollectionFirst: true }),
  'ORD-VALUES-FROM-LAST': misordered({ columnsFromLast: true }),
  'ORD-REVERSE-KEEPS-TYPE-ORDER': misordered({ reverseKeepsTypeOrder: true }),
  'ORD-STRINGS-AFTER-ARRAYS': misordered({ swapTypes: ['string', 'array'] }),
  'ORD-ARRAYS-AFTER-OBJECTS': misordered({ swapTypes: ['array', 'object'] }),
  'ORD-OBJECTS-AFTER-REFS': misordered({ swapTypes: ['object', 'ref'] }),
  'ORD-REFS-AFTER-TIMES': misordered({ swapTypes: ['ref', 'time'] }),
  'ORD-TIMES-AFTER-DATES': misordered({ swapTypes: ['time', 'date'] }),
  'ORD-DATES-AFTER-BOOLEANS': misordered({ swapTypes: ['date', 'boolean'] }),
  'ORD-DECIMALS-AFTER-NULLS': misordered({ typeAfter: ['decimal', 'null'] }),
  'ORD-DECIMALS-AFTER-STRINGS': misordered({ typeAfter: ['decimal', 'string'] }),
  'ORD-BYTES-AFTER-NULLS': misordered({ typeAfter: ['bytes', 'null'] }),
  // Entries of one null run whose document lacks the covered field move after those null by other means (an array
  // holding null): a server that tells a missing value from null. Documents are known from the answers that created them.
  'ORD-MISSING-AFTER-NULL': () =>
    observingDocuments((indexes, documents) => ({
      json: (body, ctx) => {
        const page = topLevelPage(body, ctx);
        const path = page === undefined ? undefined : indexes.pagedIndex(ctx.original)?.index.valuePaths[0];
        if (page === undefined || path === undefined) return undefined;
        const nulls = page.data.filter((entry) => Array.isArray(entry) && entry[0] === null);
        const lacking = nulls.filter((entry) => getPath(documents.get((entry as unknown[])[1])?.record, path) === undefined);
        const reordered = [...nulls.filter((entry) => !lacking.includes(entry)), ...lacking];
        if (reordered.every((entry, i) => entry === nulls[i])) return undefined;
        let next = 0;
        page.data = page.data.map((entry) => (nulls.includes(entry) ? reordered[next++] : entry));
        return body;
      },
    })),
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
  'ORD-BACKWARD-PAGE-UNREVERSED': () =>
    observingIndexes((indexes) => ({
      json: rewriteJson(
        (body, ctx) => {
          const paged = indexes.pagedIndex(ctx.original);
          const page = topLevelPage(body, ctx);
          return (
            (page?.data.length ?? 0) > 1 && paged !== undefined && paged.index.reverse.includes(true) && hasCursor(paged.form, 'before')
          );
        },
        (body) => {
          (v4Resource(body)!.data as unknown[]).reverse();
        },
      ),
    })),
};
