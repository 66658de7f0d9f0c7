/**
 * Arithmetic (Add, Subtract, Multiply, Divide, Modulo, Abs), Max and Min, and the comparisons LT, LTE, GT and GTE
 * of FQL v4, as the real service evaluates them (profile `v4-functions`, DEC-065; spec/requirements/functions-numbers.md).
 * Integers are 64-bit and wrap around on overflow; an operation with a decimal operand answers a decimal.
 */
import { errors, type Position } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import { Ref, SetRef, hasDatabaseScope, isObjectValue, type ObjectValue, type Value } from '../../values/value.js';
import { argumentTypeName } from '../arguments.js';
import { compareForComparison } from '../comparison-order.js';
import type { EvalContext } from '../context.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import { whenReady } from '../when-ready.js';
import { pageWith } from './iterables.js';

type Numeric = bigint | number;

interface Element {
  readonly value: Value;
  readonly position: Position;
}

/** What a missing schema record is called in `Ref refers to undefined <kind> '<name>'`. */
const SCHEMA_KINDS: Readonly<Record<string, string>> = {
  collections: 'collection',
  indexes: 'index',
  databases: 'database',
  roles: 'role',
  functions: 'function',
  access_providers: 'access_provider',
};

// Implements: FN-CMP-005
/**
 * `<kind> '<name>'` when `value` is a ref that does not resolve in the current database: a ref to a collection,
 * index, database, role or function that does not exist, or a document ref of a collection that does not exist.
 * Refs scoped to a child database are taken as resolved.
 */
export function unresolvedRef(ctx: EvalContext, value: Value): string | undefined {
  if (!(value instanceof Ref) || hasDatabaseScope(value)) return undefined;
  const parent = value.collection;
  if (parent === undefined) return undefined;
  if (parent.collection === undefined) {
    const kind = SCHEMA_KINDS[parent.id];
    if (kind === undefined || ctx.txn.get(ctx.database, parent.id, value.id)) return undefined;
    return `${kind} '${value.id}'`;
  }
  if (parent.collection.id !== 'collections' || parent.collection.collection !== undefined) return undefined;
  return ctx.txn.get(ctx.database, 'collections', parent.id) ? undefined : `collection '${parent.id}'`;
}

// Implements: FN-CMP-005
/** Refuses the first value that is an unresolved ref, as comparisons, Max and Min do: `invalid ref` at `position`. */
function requireResolved(ctx: EvalContext, values: readonly Value[], position: Position): void {
  for (const value of values) {
    const missing = unresolvedRef(ctx, value);
    if (missing !== undefined) throw errors.invalidRef(`Ref refers to undefined ${missing}`, position);
  }
}

/** An argument's elements: each item of an array (at its index), or the value itself. */
function elementsOf(value: Value, position: Position): Element[] {
  if (!Array.isArray(value)) return [{ value, position }];
  return value.map((item, i) => ({ value: item, position: [...position, i] }));
}

function nonEmpty<T>(items: readonly T[], position: Position): readonly T[] {
  if (items.length === 0) throw errors.invalidArgument('Non-empty array expected.', position);
  return items;
}

// Implements: FN-NUM-007
/** A number argument; anything else is `invalid argument` "Number expected, <type> provided." at `position`. */
export function expectNumber(value: Value, position: Position): Numeric {
  if (typeof value === 'bigint' || typeof value === 'number') return value;
  throw errors.invalidArgument(`Number expected, ${argumentTypeName(value)} provided.`, position);
}

interface Arithmetic {
  readonly name: string;
  /** Integer result before it is wrapped to 64 bits. */
  integers(a: bigint, b: bigint): bigint;
  decimals(a: number, b: number): number;
  /** Whether a zero operand after the first is refused (`Illegal division by zero.`). */
  readonly divides: boolean;
}

// Implements: FN-NUM-001, FN-NUM-002, FN-NUM-004, FN-NUM-006
/** Folds the operands left to right; the result is an integer while every operand so far is one. */
function fold(operation: Arithmetic, operands: readonly Numeric[], formPosition: Position): Numeric {
  let acc = operands[0]!;
  for (let i = 1; i < operands.length; i++) {
    const operand = operands[i]!;
    // 0 === -0, so a negative decimal zero divides by zero too.
    if (operation.divides && (operand === 0n || operand === 0)) throw errors.invalidArgument('Illegal division by zero.', formPosition);
    const exact = typeof acc === 'bigint' && typeof operand === 'bigint' ? operation.integers(acc, operand) : undefined;
    if (exact === undefined) acc = operation.decimals(Number(acc), Number(operand));
    else acc = BigInt.asIntN(64, exact) === exact || !failpoint('NUM-NO-OVERFLOW-WRAP') ? BigInt.asIntN(64, exact) : Number(exact);
  }
  return acc;
}

// Implements: FN-NUM-003, FN-NUM-007, FN-NUM-008
function arithmeticForm(operation: Arithmetic): FormDefinition {
  const name = operation.name;
  return {
    required: [name],
    evaluate(ctx, args) {
      return whenReady(args.valueOrPending(ctx, name), (value) => {
        const operands = elementsOf(value, args.position(name)).map((e) => expectNumber(e.value, e.position));
        if (operands.length === 0 && failpoint('NUM-EMPTY-IS-IDENTITY')) return name === 'multiply' || name === 'divide' ? 1n : 0n;
        return fold(operation, nonEmpty(operands, args.position(name)), args.node.position);
      });
    },
  };
}

/** 1 where floor division (failpoint NUM-FLOOR-DIVISION) rounds a quotient down past truncation, else 0. */
const flooring = (a: bigint, b: bigint): bigint => (a % b !== 0n && a < 0n !== b < 0n && failpoint('NUM-FLOOR-DIVISION') ? 1n : 0n);

// Implements: FN-NUM-005
const ARITHMETIC: readonly Arithmetic[] = [
  { name: 'add', integers: (a, b) => a + b, decimals: (a, b) => a + b, divides: false },
  { name: 'subtract', integers: (a, b) => a - b, decimals: (a, b) => a - b, divides: false },
  { name: 'multiply', integers: (a, b) => a * b, decimals: (a, b) => a * b, divides: false },
  // BigInt division and remainder truncate toward zero and take the dividend's sign, as Java's long operators do.
  { name: 'divide', integers: (a, b) => a / b - flooring(a, b), decimals: (a, b) => a / b, divides: true },
  { name: 'modulo', integers: (a, b) => (a % b) + flooring(a, b) * b, decimals: (a, b) => a % b, divides: true },
];

// Implements: FN-NUM-009
const abs: FormDefinition = {
  required: ['abs'],
  evaluate(ctx, args) {
    return whenReady(args.valueOrPending(ctx, 'abs'), (value) => {
      const n = expectNumber(value, args.position('abs'));
      // The smallest long has no positive counterpart and stays itself, as in Java.
      if (typeof n === 'bigint') return BigInt.asIntN(64, n < 0n ? -n : n);
      return Math.abs(n);
    });
  },
};

// Implements: FN-CMP-001, FN-NUM-008
function comparisonForm(name: string, holds: (order: number) => boolean): FormDefinition {
  return {
    required: [name],
    evaluate(ctx, args) {
      return whenReady(args.valueOrPending(ctx, name), (value) => {
        const elements = elementsOf(value, args.position(name));
        if (elements.length === 0 && failpoint('NUM-EMPTY-IS-IDENTITY')) return true;
        const values = nonEmpty(elements, args.position(name)).map((e) => e.value);
        requireResolved(ctx, values, [...args.node.position, name]);
        if (values.length === 1 && failpoint('CMP-SINGLE-OPERAND-FALSE')) return false;
        for (let i = 1; i < values.length; i++) {
          if (!holds(compareForComparison(values[i - 1]!, values[i]!))) return false;
        }
        return true;
      });
    },
  };
}

/** A Paginate result: the reference server's pages are objects with a `data` array. */
function isPage(value: Value): value is ObjectValue & { data: Value[] } {
  return isObjectValue(value) && Array.isArray(value.data);
}

// Implements: FN-NUM-011, FN-NUM-012
/** The elements of an array, page or set, and the page they came from; an array holding just one of these stands for it. */
async function iterableElements(
  ctx: EvalContext,
  value: Value,
  position: Position,
): Promise<{ values: readonly Value[]; page?: ObjectValue & { data: Value[] } }> {
  if (Array.isArray(value)) {
    const only = value.length === 1 ? value[0]! : undefined;
    if (only !== undefined && (Array.isArray(only) || isPage(only) || only instanceof SetRef)) return iterableElements(ctx, only, position);
    return { values: value };
  }
  const setOrPage = isPage(value) || value instanceof SetRef || (value instanceof Ref && value.collection === undefined);
  if (setOrPage && failpoint('NUM-MAX-NO-SETS')) throw errors.invalidArgument('Array expected, Set provided.', position);
  if (isPage(value)) return { values: value.data, page: value };
  // A native collection ref (`Keys()`, …) is the set of its records.
  if (setOrPage) {
    const set = await ctx.services.sets.read(ctx, value, position);
    const out: Value[] = [];
    for (let it = set.ascending(), next = it.next(); !next.done; next = it.next()) out.push(set.element(next.value));
    return { values: out };
  }
  if (failpoint('NUM-MAX-OF-LONE-VALUE')) return { values: [value] };
  throw errors.invalidArgument(`Array, Set, or Page expected, ${argumentTypeName(value)} provided.`, position);
}

// Implements: FN-NUM-010, FN-NUM-011, FN-NUM-012
/**
 * Max and Min: of equal values (1 and 1.0) the later one wins, as in the real service. Of a page they answer a page
 * holding the one result with the page's cursors, as every fold of a page does (FN-NUM-011).
 */
function extremeForm(name: 'max' | 'min', keepsCurrent: (order: number) => boolean): FormDefinition {
  return {
    required: [name],
    async evaluate(ctx: EvalContext, args: FormArgs) {
      const { values, page } = await iterableElements(ctx, await args.value(ctx, name), args.position(name));
      const at: Position = [...args.node.position, name];
      requireResolved(ctx, values, at);
      let best: Value | undefined;
      for (const value of nonEmpty(values, at)) {
        const order = best === undefined ? 0 : compareForComparison(best, value);
        if (best === undefined || !(keepsCurrent(order) || (order === 0 && failpoint('NUM-MAX-KEEPS-FIRST-TIE')))) best = value;
      }
      if (page === undefined || failpoint('NUM-MAX-OF-PAGE-BARE')) return best!;
      return pageWith([best!], page.before, page.after);
    },
  };
}

export const numberForms: readonly FormDefinition[] = [
  ...ARITHMETIC.map(arithmeticForm),
  abs,
  extremeForm('max', (order) => order > 0),
  extremeForm('min', (order) => order < 0),
  comparisonForm('lt', (order) => order < 0),
  comparisonForm('lte', (order) => order <= 0),
  comparisonForm('gt', (order) => order > 0),
  comparisonForm('gte', (order) => order >= 0),
];
