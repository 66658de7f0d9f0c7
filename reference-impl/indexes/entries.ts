/**
 * The index entries one document contributes (SD "Term object", "Value object"; fauna/faunadb `doc/Index.scala`,
 * `repo/doc/Indexer.scala`).
 *
 * Each term and value column yields a list of candidates. A field column with `mva` (the default) yields the field
 * itself when it is a scalar, each element when it is an array (nested arrays flattened, duplicates removed), and
 * null for an object; with `mva: false` it yields the field whole. A binding column yields the binding's scalar, or
 * each element of the array it answers (an element that is not a scalar counts as null). A missing field yields
 * `[null]`. The entries are the cartesian product of the candidates, as in the real service:
 * - a term combination that is all null is not indexed (with several terms a missing field is a null term,
 *   but a document lacking every term is not in any set); no terms → one entry in the single set;
 * - a value combination that is all null is not indexed; no values → the entry covers the ref only.
 */
import { failpoint, failpointWhere } from '../failpoints.js';
import { compareValues, lackingFirstValue } from './value-order.js';
import { sourceFor, type IndexDefinition, type IndexedDocument, type IndexSource, type TermColumn } from './index-definition.js';
import { type Ref, isObjectValue, type Value } from '../values/value.js';

export interface IndexEntry {
  terms: Value[];
  values: Value[];
  ref: Ref;
}

// Implements: IDX-TERM-001, IDX-TERM-002, IDX-VALUE-003
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

function distinct(values: Value[]): Value[] {
  const out: Value[] = [];
  for (const v of values) if (!out.some((o) => compareValues(o, v) === 0)) out.push(v);
  return out;
}

function isScalar(v: Value): boolean {
  return !Array.isArray(v) && !isObjectValue(v);
}

/** Candidates of a field read with `mva`: arrays flattened, objects as null. */
function flatten(v: Value, out: Value[]): void {
  if (Array.isArray(v)) for (const e of v) flatten(e, out);
  else out.push(isScalar(v) ? v : null);
}

// Implements: IDX-TERM-003, IDX-VALUE-005, IDX-VALUE-008, ORD-TYPE-009
function fieldCandidates(v: Value | undefined, mva: boolean, valueColumn: boolean): Value[] {
  if (v === undefined || v === null) return [null];
  // The faults IDX-ARRAY-VALUE-WHOLE and IDX-ARRAY-TERM-WHOLE: an array at a value or term path is one value.
  if (!mva || (Array.isArray(v) && (valueColumn ? failpoint('IDX-ARRAY-VALUE-WHOLE') : failpoint('IDX-ARRAY-TERM-WHOLE')))) return [v];
  const out: Value[] = [];
  flatten(v, out);
  return out.length === 0 ? [null] : distinct(out);
}

// Implements: IDX-SOURCE-007, IDX-VALUE-004
/** Candidates of a binding's result: its scalar, or each element of its array (non-scalars as null). */
function bindingCandidates(v: Value | undefined): Value[] {
  if (v === undefined || v === null) return [null];
  const out = Array.isArray(v) ? v.map((e) => (isScalar(e) ? e : null)) : [isScalar(v) ? v : null];
  return out.length === 0 ? [null] : distinct(out);
}

function candidates(document: IndexedDocument, source: IndexSource, column: TermColumn, valueColumn: boolean): Value[] {
  const { extractor } = column;
  if (extractor.kind === 'field') return fieldCandidates(readPath(document, extractor.path), column.mva, valueColumn);
  const binding = source.bindings.get(extractor.name);
  const result = binding ? binding(document) : undefined;
  // The fault IDX-BINDING-ARRAY-WHOLE: an array a term's binding answers is one term.
  return !valueColumn && Array.isArray(result) && failpoint('IDX-BINDING-ARRAY-WHOLE') ? [result] : bindingCandidates(result);
}

function product(columns: Value[][]): Value[][] {
  let rows: Value[][] = [[]];
  for (const column of columns) rows = rows.flatMap((row) => column.map((v) => [...row, v]));
  return rows;
}

function allNull(row: Value[]): boolean {
  return row.length > 0 && row.every((v) => v === null);
}

// Implements: IDX-TERM-004, IDX-TERM-005, IDX-TERM-006, IDX-VALUE-005, IDX-VALUE-007
/** The entries `document` contributes to the index; empty when no source of the index covers its collection. */
export function entriesFor(definition: IndexDefinition, document: IndexedDocument): IndexEntry[] {
  const collection = document.ref.collection;
  if (collection === undefined) return [];
  const source = sourceFor(definition, collection);
  if (source === undefined) return [];
  const first = definition.values[0]?.extractor;
  if (first?.kind === 'field' && failpointWhere('ORD-MISSING-AFTER-NULL', () => readPath(document, first.path) === undefined))
    lackingFirstValue.add(document.ref);
  // The faults IDX-NULL-TERMS-INDEXED and IDX-NULL-VALUES-INDEXED keep the all-null rows.
  const termRows = product(definition.terms.map((t) => candidates(document, source, t, false))).filter(
    (r) => !allNull(r) || failpoint('IDX-NULL-TERMS-INDEXED'),
  );
  const valueRows = product(definition.values.map((c) => candidates(document, source, c, true))).filter(
    (r) => !allNull(r) || failpoint('IDX-NULL-VALUES-INDEXED'),
  );
  return termRows.flatMap((terms) => valueRows.map((values) => ({ terms, values, ref: document.ref })));
}
