/**
 * Object functions (DEC-065, spec/requirements/functions-collections.md): Merge with its optional resolver lambda,
 * ContainsPath (and its older name Contains), ContainsField, ContainsValue, ToObject and ToArray.
 */
import type { Expr } from '../../codec/v4-ast.js';
import { type QueryError, errors, type Position } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import { QueryValue, Ref, SetRef, isObjectValue, setField, type ObjectValue, type Value } from '../../values/value.js';
import type { EvalContext } from '../context.js';
import type { FormDefinition } from '../form-registry.js';
import { applyLambda, type LambdaValue } from '../lambda.js';
import { valuesEqual } from '../value-equality.js';
import { isPageValue, serviceTypeName, setElements, wrongType } from './iterables.js';
import { documentRef } from './type-checks.js';
import { asLambda } from './set-reading.js';

// Implements: FN-OBJ-003
/** An object argument; a page is not one (functions-collections.md, Decisions). */
function asObject(value: Value, position: Position): ObjectValue {
  if (isObjectValue(value) && !isPageValue(value)) return value;
  throw wrongType('Object', value, position);
}

/** The JSON type of a raw argument, as the service names it when the argument is not a lambda form. */
function rawTypeName(raw: unknown): string {
  if (raw === null) return 'Null';
  if (Array.isArray(raw)) return 'Array';
  if (typeof raw === 'bigint') return 'Integer';
  if (typeof raw === 'number') return 'Double';
  if (typeof raw === 'boolean') return 'Boolean';
  return 'String';
}

// Implements: FN-ARR-011, FN-AGG-013, FN-OBJ-004
/**
 * The lambda of Merge, Map, Foreach, Filter and Reduce is read when the real service parses the query: it must be
 * written as a lambda form (`{"lambda", "expr"}`, optionally with `api_version`), not any expression that evaluates
 * to a lambda. Anything else is `invalid expression` at the argument.
 */
export function requireLambdaForm(expr: Expr): void {
  const raw = expr.raw;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw errors.invalidExpression(`Lambda expected, ${rawTypeName(raw)} provided.`, expr.position);
  }
  const keys = Object.keys(raw);
  const isLambda =
    keys.includes('lambda') && keys.includes('expr') && keys.every((k) => k === 'lambda' || k === 'expr' || k === 'api_version');
  if (!isLambda) throw errors.invalidExpression(`No form/function found, or invalid argument keys: { ${keys.join(', ')} }.`, expr.position);
}

// Implements: FN-OBJ-001, FN-OBJ-002, FN-OBJ-003
const merge: FormDefinition = {
  required: ['merge', 'with'],
  optional: ['lambda'],
  async evaluate(ctx, args) {
    if (args.has('lambda')) requireLambdaForm(args.expr('lambda'));
    const left = await args.value(ctx, 'merge');
    const right = await args.value(ctx, 'with');
    const resolver: LambdaValue | undefined =
      args.has('lambda') && !failpoint('OBJ-MERGE-LAMBDA-IGNORED')
        ? asLambda(await args.value(ctx, 'lambda'), args.position('lambda'))
        : undefined;
    const base = asObject(left, args.position('merge'));
    const withPosition = args.position('with');
    const others = Array.isArray(right) ? right.map((o, i) => asObject(o, [...withPosition, i])) : [asObject(right, withPosition)];
    const merged = new Map<string, Value>(Object.entries(base));
    for (const other of others) {
      for (const [key, value] of Object.entries(other)) {
        // The resolver gets [key, left value (null when absent), right value]; a null result removes the key.
        const resolved =
          resolver === undefined ? value : await applyLambda(ctx, resolver, [[key, merged.get(key) ?? null, value]], args.node.position);
        if (resolved === null && !(resolver === undefined && failpoint('OBJ-MERGE-NULL-KEPT'))) merged.delete(key);
        else merged.set(key, resolved);
      }
    }
    const out: ObjectValue = {};
    for (const [key, value] of merged) setField(out, key, value);
    return out;
  },
};

// Implements: FN-OBJ-006
/** A path argument: one string or integer, or an array of them; a wrong element is reported at its own position. */
export function pathArgument(value: Value, position: Position): Array<string | bigint> {
  const elements = Array.isArray(value) ? value.map((v, i) => ({ v, at: [...position, i] })) : [{ v: value, at: position }];
  return elements.map(({ v, at }) => {
    if (typeof v === 'string' || typeof v === 'bigint') return v;
    throw wrongType('String or Integer', v, at);
  });
}

/** The ref of the database a scoped ref lives in, if it names something of a child database. */
function databaseOf(ref: Ref): Ref | undefined {
  return ref.database ?? ref.collection?.database;
}

// Implements: FN-OBJ-005
/** Whether `path` leads somewhere in `container`, walking as Select does without `all`. */
function hasPath(container: Value, path: ReadonlyArray<string | bigint>, from = 0): boolean {
  // A loop, not recursion on the rest of the path: a path may hold hundreds of thousands of elements.
  let current = container;
  for (let i = from; i < path.length; i++) {
    const head = path[i]!;
    if (current instanceof Ref) {
      if (head === 'class' || head === 'collection') current = current.collection ?? NATIVE_COLLECTIONS_REF;
      else if (head === 'id') return i === path.length - 1;
      else if (head === 'database') {
        const database = databaseOf(current);
        if (database === undefined) return false;
        current = database;
      } else return false;
    } else if (current instanceof SetRef) {
      if (head !== '@set') return false;
      current = current.structure;
    } else if (Array.isArray(current)) {
      if (typeof head !== 'bigint' || head < 0n || head >= BigInt(current.length)) return false;
      current = current[Number(head)]!;
    } else if (isPageValue(current) && typeof head === 'bigint') {
      return hasPath(current.data, path, i);
    } else if (isObjectValue(current)) {
      if (typeof head !== 'string' || !Object.hasOwn(current, head)) return false;
      current = current[head]!;
    } else return false;
  }
  return true;
}

/** What `collection` of a native collection's ref is: the collection of collections. */
const NATIVE_COLLECTIONS_REF = new Ref('collections');

function containsPathForm(name: 'contains_path' | 'contains'): FormDefinition {
  return {
    required: [name, 'in'],
    async evaluate(ctx, args) {
      const path = pathArgument(await args.value(ctx, name), args.position(name));
      return hasPath(await args.value(ctx, 'in'), path);
    },
  };
}

// Implements: FN-OBJ-007
const containsField: FormDefinition = {
  required: ['contains_field', 'in'],
  async evaluate(ctx, args) {
    const field = await args.value(ctx, 'contains_field');
    if (typeof field !== 'string') throw wrongType('String', field, args.position('contains_field'));
    const container = await args.value(ctx, 'in');
    if (Array.isArray(container)) throw wrongType('Object', container, args.position('in'));
    return hasPath(container, [field]);
  },
};

/** A document as Get reads it: `{ref, ts, data, …}` with the ref of a document in a user collection. */
function isUserDocument(value: ObjectValue): value is ObjectValue & { ref: Ref } {
  return documentRef(value)?.collection?.collection?.id === 'collections' && isObjectValue(value.data);
}

// Implements: FN-OBJ-008, FN-OBJ-009
async function containsValue(
  ctx: EvalContext,
  value: Value,
  container: Value,
  position: Position,
  callPosition: Position,
): Promise<boolean> {
  if (container instanceof Ref) {
    const database = databaseOf(container);
    return (
      valuesEqual(value, container.id) ||
      (container.collection !== undefined && valuesEqual(value, container.collection)) ||
      (database !== undefined && valuesEqual(value, database))
    );
  }
  // A set the caller may not read is refused at the call, as in the real service.
  if (container instanceof SetRef) return (await setElements(ctx, container, callPosition)).some((element) => valuesEqual(element, value));
  if (container instanceof QueryValue) return false;
  if (Array.isArray(container)) return container.some((element) => valuesEqual(element, value));
  if (isPageValue(container) && failpoint('OBJ-CONTAINS-VALUE-PAGE-ELEMENTS')) return container.data.some((e) => valuesEqual(e, value));
  if (isObjectValue(container)) {
    // A document also holds its collection's ref, which is not one of its fields.
    if (isUserDocument(container) && valuesEqual(value, container.ref.collection!)) return true;
    return Object.values(container).some((v) => valuesEqual(v, value));
  }
  throw errors.invalidArgument('Object, Array, Page, Set, or Ref expected, Scalar provided.', position);
}

const containsValueForm: FormDefinition = {
  required: ['contains_value', 'in'],
  async evaluate(ctx, args) {
    const given = await args.value(ctx, 'contains_value');
    const whole = typeof given === 'number' && Number.isInteger(given) && failpoint('OBJ-CONTAINS-VALUE-LOOSE-NUMBERS');
    const value = whole ? BigInt(given) : given;
    return containsValue(ctx, value, await args.value(ctx, 'in'), args.position('in'), args.node.position);
  },
};

function cannotCast(value: Value, to: string, position: Position): QueryError {
  return errors.invalidArgument(`Cannot cast ${serviceTypeName(value)} to ${to}.`, position);
}

// Implements: FN-OBJ-010
const toObject: FormDefinition = {
  required: ['to_object'],
  async evaluate(ctx, args) {
    const position = args.position('to_object');
    const value = await args.value(ctx, 'to_object');
    if (isObjectValue(value) && !isPageValue(value)) return value;
    if (!Array.isArray(value)) throw cannotCast(value, 'Object', position);
    const out: ObjectValue = {};
    value.forEach((pair, i) => {
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
        throw errors.invalidArgument(`Field/Value expected, ${serviceTypeName(pair)} provided.`, [...position, i]);
      }
      setField(out, pair[0], pair[1]!);
    });
    return out;
  },
};

// Implements: FN-OBJ-011
const toArray: FormDefinition = {
  required: ['to_array'],
  async evaluate(ctx, args) {
    const value = await args.value(ctx, 'to_array');
    if (Array.isArray(value)) return value;
    if (isObjectValue(value) && !isPageValue(value))
      return Object.entries(value).map(([key, v]) => (failpoint('OBJ-TO-ARRAY-PAIRS-REVERSED') ? [v, key] : [key, v]));
    throw cannotCast(value, 'Array', args.position('to_array'));
  },
};

export const objectForms: readonly FormDefinition[] = [
  merge,
  containsPathForm('contains_path'),
  containsPathForm('contains'),
  containsField,
  containsValueForm,
  toObject,
  toArray,
];
