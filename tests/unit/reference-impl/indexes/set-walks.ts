// Walking an ordered set page by page, as a client paginates it: the fixtures of the set unit tests.
import type { IndexTuple } from '../../../../reference-impl/indexes/index-store.js';
import { paginateSet, type OrderedSet } from '../../../../reference-impl/indexes/ordered-set.js';
import { Ref, type Value } from '../../../../reference-impl/values/value.js';

const coll = new Ref('c', new Ref('collections'));
/** A document ref of the test collection `c`. */
export const ref = (id: number) => new Ref(String(id), coll);

const MAX_PAGES = 1000;

/** Every element of a forward walk with pages of `size`. */
export function walkForward(set: OrderedSet, size: number): Value[] {
  const out: Value[] = [];
  let after: IndexTuple | undefined;
  for (let guard = 0; guard < MAX_PAGES; guard++) {
    const page = paginateSet(set, { size, after });
    out.push(...page.data.map((t) => set.element(t)));
    if (!page.after) return out;
    after = page.after;
  }
  throw new Error('walk did not end');
}

/** Every element of a backward walk from the end, in set order. */
export function walkBackward(set: OrderedSet, size: number): Value[] {
  const pages: Value[][] = [];
  let page = paginateSet(set, { size, fromEnd: true });
  for (let guard = 0; guard < MAX_PAGES; guard++) {
    pages.unshift(page.data.map((t) => set.element(t)));
    if (!page.before) return pages.flat();
    page = paginateSet(set, { size, before: page.before });
  }
  throw new Error('walk did not end');
}
