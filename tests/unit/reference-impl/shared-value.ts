import type { Value } from '../../../reference-impl/values/value.js';

/**
 * `leaf` wrapped `times` times in `[x, x]` (or `{a: x, b: x}`): as a query's `Reduce` nesting `[acc, acc]` builds it,
 * `times` containers in memory and 2^times leaves when walked.
 */
export function doubled(leaf: Value, times: number, shape: 'array' | 'object' = 'array'): Value {
  let value = leaf;
  for (let i = 0; i < times; i++) value = shape === 'array' ? [value, value] : { a: value, b: value };
  return value;
}
