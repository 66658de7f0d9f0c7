/**
 * An executable model of one index set, the oracle for the paging and ordering properties. It works on wire
 * values (see wire-order.ts) and states the SD rules directly:
 * - a term or value column reads a field path of the document (`["ref"]`, `["data", …]`); an array there gives
 *   one candidate per element (nested arrays flattened, repeats dropped), a missing field gives null, and an
 *   object gives null at a term path, and at a value path too as the real service does (a server covering it whole,
 *   the SD's reading, is modelled with `objectValuesWhole`); a column with `mva: false` reads the field whole;
 * - entries are every combination of candidates; a combination whose terms are all null, or whose covered
 *   values are all null, is not indexed;
 * - a set holds the entries whose terms equal the matched terms, sorted by covered values (per-column
 *   reverse, in one of the two accepted type orders, `core` by default) with the ref as the final ascending
 *   tie-breaker;
 * - cursors are `[...values, ref]`; `after` is inclusive, `before` exclusive; a cursor is compared with the entries
 *   in the set's order like any tuple (a shorter one is a prefix, which sorts before the entries it starts), so a
 *   null cursor `[null]` sorts after every entry of an ascending first column and before every entry of a reversed one;
 * - a page reached with a cursor carries it on the side it came from (size 0: on both sides).
 */
import { compareWire, compareWireTuples, type WireOrder, type WireValue } from './wire-order.js';

export interface ModelDocument {
  ref: WireValue;
  data?: { [key: string]: WireValue };
  [field: string]: WireValue | undefined;
}

export interface ModelColumn {
  field: readonly (string | number)[];
  reverse?: boolean;
  /** False: the field is covered whole (arrays and objects included). */
  mva?: boolean;
}

/** How the modelled server reads values where the spec accepts two behaviours. */
export interface ModelOptions {
  /** The type order (ORD-TYPE-011, ORD-TYPE-012); `core` when not given. */
  order?: WireOrder;
  /** An object at a value path is covered whole (the SD's reading) rather than as null (IDX-VALUE-008). */
  objectValuesWhole?: boolean;
}

export interface ModelIndex {
  terms?: readonly ModelColumn[];
  values?: readonly ModelColumn[];
}

export interface ModelEntry {
  terms: WireValue[];
  values: WireValue[];
  ref: WireValue;
  /** The cursor naming this entry: `[...values, ref]`. */
  cursor: WireValue[];
  /** The entry as a page element: the ref with no values, the value with one, else the value array. */
  element: WireValue;
}

export interface ModelPage {
  data: WireValue[];
  before?: WireValue[];
  after?: WireValue[];
}

function read(doc: ModelDocument, path: readonly (string | number)[]): WireValue | undefined {
  let at: WireValue | undefined = doc as unknown as WireValue;
  for (const step of path) {
    if (at === undefined || at === null || typeof at !== 'object') return undefined;
    if (Array.isArray(at)) {
      if (typeof step !== 'number') return undefined;
      at = at[step];
    } else {
      if (typeof step !== 'string' || !Object.hasOwn(at, step)) return undefined;
      at = at[step];
    }
  }
  return at;
}

function isPlainObject(v: WireValue): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return !(keys.length === 1 && ['@ref', '@ts', '@date', '@bytes', '@set', '@query'].includes(keys[0]!));
}

function candidatesOf(v: WireValue | undefined, column: ModelColumn, objectsWhole: boolean, order: WireOrder): WireValue[] {
  if (column.mva === false) return [v ?? null];
  const flat: WireValue[] = [];
  const walk = (x: WireValue): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else flat.push(!objectsWhole && isPlainObject(x) ? null : x);
  };
  if (v !== undefined) walk(v);
  const unique: WireValue[] = [];
  for (const x of flat) if (!unique.some((u) => compareWire(u, x, order) === 0)) unique.push(x);
  return unique.length === 0 ? [null] : unique;
}

function combinations(columns: WireValue[][]): WireValue[][] {
  return columns.reduce<WireValue[][]>((rows, column) => rows.flatMap((row) => column.map((v) => [...row, v])), [[]]);
}

const allNull = (row: WireValue[]): boolean => row.length > 0 && row.every((v) => v === null);

export class IndexModel {
  private readonly reverse: boolean[];
  private readonly all: ModelEntry[];
  private readonly order: WireOrder;

  constructor(
    readonly index: ModelIndex,
    documents: readonly ModelDocument[],
    options: ModelOptions = {},
  ) {
    const terms = index.terms ?? [];
    const values = index.values ?? [];
    this.order = options.order ?? 'core';
    const order = this.order;
    this.reverse = values.map((v) => v.reverse === true);
    this.all = documents.flatMap((doc) => {
      const termRows = combinations(terms.map((t) => candidatesOf(read(doc, t.field), t, false, order))).filter((r) => !allNull(r));
      const valueRows = combinations(
        values.map((v) => candidatesOf(read(doc, v.field), v, options.objectValuesWhole === true, order)),
      ).filter((r) => !allNull(r));
      return termRows.flatMap((t) =>
        valueRows.map((v) => ({
          terms: t,
          values: v,
          ref: doc.ref,
          cursor: [...v, doc.ref],
          element: v.length === 0 ? doc.ref : v.length === 1 ? v[0]! : v,
        })),
      );
    });
  }

  /** The set for `terms` in index order. */
  entries(terms: readonly WireValue[]): ModelEntry[] {
    return this.all
      .filter((e) => e.terms.length === terms.length && e.terms.every((t, i) => compareWire(t, terms[i], this.order) === 0))
      .sort((a, b) => compareWireTuples(a.cursor, b.cursor, this.reverse, this.order));
  }

  /**
   * A complete cursor past every entry of the index: per covered value the value that sorts last in its column (null,
   * or the smallest integer in a reversed one), then null in the ref's place.
   */
  pastEnd(): WireValue[] {
    return [...this.reverse.map((r) => (r ? -(2n ** 63n) : null)), null];
  }

  /** One page: forward from `after` (inclusive), or backward from `before` (exclusive). */
  page(terms: readonly WireValue[], request: { size: number; after?: WireValue[]; before?: WireValue[] }): ModelPage {
    const set = this.entries(terms);
    const { size, after, before } = request;
    if (before !== undefined) {
      const below = set.filter((e) => compareWireTuples(e.cursor, before, this.reverse, this.order) < 0);
      const start = Math.max(0, below.length - size);
      const page: ModelPage = { data: below.slice(start).map((e) => e.element) };
      page.after = before;
      if (size === 0) page.before = before;
      else if (start > 0) page.before = below[start]!.cursor;
      return page;
    }
    const from = after === undefined ? set : set.filter((e) => compareWireTuples(e.cursor, after, this.reverse, this.order) >= 0);
    const page: ModelPage = { data: from.slice(0, size).map((e) => e.element) };
    if (after !== undefined) page.before = after;
    if (size === 0 && after !== undefined) page.after = after;
    else if (from.length > size) page.after = from[size]!.cursor;
    return page;
  }

  /** The pages a client sees walking the whole set forward by `after` from the start. */
  paginateForward(terms: readonly WireValue[], size: number): ModelPage[] {
    if (size < 1) throw new RangeError('a walk needs a page size of at least 1');
    const pages: ModelPage[] = [];
    let after: WireValue[] | undefined;
    do {
      const page = this.page(terms, after === undefined ? { size } : { size, after });
      pages.push(page);
      after = page.after;
    } while (after !== undefined);
    return pages;
  }

  /** The pages a client sees walking the set backward by `before` from the cursor `end` (default past every entry), last page first. */
  paginateBackward(terms: readonly WireValue[], size: number, end: WireValue[] = this.pastEnd()): ModelPage[] {
    if (size < 1) throw new RangeError('a walk needs a page size of at least 1');
    const pages: ModelPage[] = [];
    let before: WireValue[] | undefined = end;
    while (before !== undefined) {
      const page = this.page(terms, { size, before });
      pages.push(page);
      before = page.before;
    }
    return pages;
  }
}
