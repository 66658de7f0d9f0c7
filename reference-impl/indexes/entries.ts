/**
 * The index entries one document contributes (SD "Term object", "Value object").
 *
 * Each term and value column yields a list of candidates: the field (or binding result) itself, or, when it is
 * an array, each element (nested arrays flattened, duplicates removed); a missing field yields `[null]`. The
 * entries are the cartesian product of the candidates, as in the real service:
 * - terms are scalars, so an object at a term path counts as null;
 * - a term combination that is all null is not indexed (with several terms a missing field is a null term,
 *   but a document lacking every term is not in any set); no terms → one entry in the single set;
 * - a value combination that is all null is not indexed; no values → the entry covers the ref only.
 */
import { compareValues } from './value-order.js';
import { sourceFor, type Extractor, type IndexDefinition, type IndexedDocument, type IndexSource } from './index-definition.js';
import { Ref, isObjectValue, type Value } from '../values/value.js';

export interface IndexEntry {
  terms: Value[];
  values: Value[];
  ref: Ref;
}

function readPath(document: IndexedDocument, path: readonly (string | number)[]): Value | undefined {
  let at: Value | undefined = document;
  for (const segment of path) {
    if (typeof segment === 'number') {
      if (!Array.isArray(at)) return undefined;
      at = at[segment];
    } else {
      if (!isObjectValue(at)) return undefined;
      at = Object.hasOwn(at, segment) ? at[segment] : undefined;
    }
  }
  return at;
}

function extract(document: IndexedDocument, source: IndexSource, extractor: Extractor): Value | undefined {
  if (extractor.kind === 'field') return readPath(document, extractor.path);
  const binding = source.bindings.get(extractor.name);
  return binding ? binding(document) : undefined;
}

function distinct(values: Value[]): Value[] {
  const out: Value[] = [];
  for (const v of values) if (!out.some((o) => compareValues(o, v) === 0)) out.push(v);
  return out;
}

function flatten(v: Value, scalarOnly: boolean, out: Value[]): void {
  if (Array.isArray(v)) for (const e of v) flatten(e, scalarOnly, out);
  else out.push(scalarOnly && isObjectValue(v) ? null : v);
}

function candidates(v: Value | undefined, scalarOnly: boolean): Value[] {
  if (v === undefined || v === null) return [null];
  const out: Value[] = [];
  flatten(v, scalarOnly, out);
  return out.length === 0 ? [null] : distinct(out);
}

function product(columns: Value[][]): Value[][] {
  let rows: Value[][] = [[]];
  for (const column of columns) rows = rows.flatMap((row) => column.map((v) => [...row, v]));
  return rows;
}

function allNull(row: Value[]): boolean {
  return row.length > 0 && row.every((v) => v === null);
}

/** The entries `document` contributes to the index; empty when no source of the index covers its collection. */
export function entriesFor(definition: IndexDefinition, document: IndexedDocument): IndexEntry[] {
  const collection = document.ref.collection;
  if (collection === undefined) return [];
  const source = sourceFor(definition, collection);
  if (source === undefined) return [];
  const termRows = product(definition.terms.map((t) => candidates(extract(document, source, t.extractor), true))).filter((r) => !allNull(r));
  const valueRows = product(definition.values.map((c) => candidates(extract(document, source, c.extractor), false))).filter((r) => !allNull(r));
  return termRows.flatMap((terms) => valueRows.map((values) => ({ terms, values, ref: document.ref })));
}
