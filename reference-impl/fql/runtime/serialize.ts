/**
 * FQL values as JSON text and back, for what outlives a query: set cursors (`after`), and the sets and functions
 * an event source carries in its token. Plain data is in the tagged encoding; documents, modules, functions (their
 * syntax tree and the variables they read) and sets (their source and operations) have forms of their own.
 */
import { decodeTagged, encodeTagged, toValue, type Json } from '../../codec/tagged.js';
import { isObjectValue, setField, type Value } from '../../values/value.js';
import { childrenOf, type Expr, type LambdaExpr, type ProjectionField } from '../ast.js';
import { runtimeError } from '../fql-error.js';
import { FqlSet, type SetOp, type SetSource } from './sets.js';
import {
  DocRef,
  Env,
  EventSourceValue,
  FqlModule,
  isFqlObject,
  Lambda,
  NativeFunction,
  NullWithCause,
  type FqlObject,
  type FqlValue,
} from './values.js';

/** Resolves the server's own functions by name when a serialized value names one. */
export type GlobalLookup = (name: string) => FqlValue | undefined;

export function encodeValue(value: FqlValue): Json {
  if (value instanceof NullWithCause) return { v: null };
  if (value instanceof DocRef)
    return { doc: [value.collection.kind, value.collection.kind === 'user' ? value.collection.name : value.collection.native, value.id] };
  if (value instanceof FqlModule) return { mod: value.collection === undefined ? [value.name] : [value.name, value.collection] };
  if (value instanceof Lambda) return { fn: encodeLambda(value) };
  if (value instanceof NativeFunction) return { global: value.name };
  if (value instanceof FqlSet) return { set: encodeSet(value) };
  if (value instanceof EventSourceValue) return { v: value.token };
  if (Array.isArray(value)) return isPlain(value) ? { v: encodeTagged(value as Value) } : { arr: value.map(encodeValue) };
  if (isFqlObject(value)) {
    if (isPlain(value)) return { v: encodeTagged(value as Value) };
    const fields: Record<string, Json> = {};
    for (const [key, field] of Object.entries(value)) fields[key] = encodeValue(field);
    return { obj: fields };
  }
  return { v: encodeTagged(value as Value) };
}

function isPlain(value: FqlValue): boolean {
  if (Array.isArray(value)) return value.every(isPlain);
  if (isFqlObject(value)) return Object.values(value).every(isPlain);
  return !(
    value instanceof NullWithCause ||
    value instanceof DocRef ||
    value instanceof FqlModule ||
    value instanceof Lambda ||
    value instanceof NativeFunction ||
    value instanceof FqlSet ||
    value instanceof EventSourceValue
  );
}

export function decodeValue(json: unknown, globals: GlobalLookup): FqlValue {
  if (!isRecord(json)) throw corrupt();
  if ('v' in json) return fromPlain(toValue(decodeTagged(json.v)));
  if ('doc' in json) {
    const [kind, name, id] = json.doc as [string, string, string];
    return new DocRef(kind === 'user' ? { kind: 'user', name } : { kind: 'native', native: name }, id);
  }
  if ('mod' in json) {
    const [name, collection] = json.mod as [string, string | undefined];
    return new FqlModule(name, collection);
  }
  if ('fn' in json) return decodeLambda(json.fn, globals);
  if ('global' in json) {
    const found = globals(String(json.global));
    if (found === undefined) throw corrupt();
    return found;
  }
  if ('set' in json) return decodeSet(json.set, globals);
  if ('arr' in json && Array.isArray(json.arr)) return json.arr.map((item) => decodeValue(item, globals));
  if ('obj' in json && isRecord(json.obj)) {
    const out: FqlObject = {};
    for (const [key, field] of Object.entries(json.obj)) out[key] = decodeValue(field, globals);
    return out;
  }
  throw corrupt();
}

/** Plain stored data as FQL values: refs become documents and modules (see DocumentAccess.fromStored). */
function fromPlain(value: Value): FqlValue {
  if (Array.isArray(value)) return value.map(fromPlain);
  if (isObjectValue(value)) {
    const out: FqlObject = {};
    for (const [key, field] of Object.entries(value)) out[key] = fromPlain(field);
    return out;
  }
  return value as FqlValue;
}

function isRecord(json: unknown): json is Record<string, unknown> {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}

function corrupt(): Error {
  return runtimeError('invalid_cursor', undefined, 'Cursor cursor is invalid or expired.');
}

// ---------------------------------------------------------------------------------------------- syntax trees

/** A syntax tree as JSON: nodes as they are, literal values tagged. */
function encodeExpr(expr: Expr): Json {
  return JSON.parse(
    JSON.stringify(expr, (_key, value: unknown) => {
      if (isRecord(value) && value.kind === 'literal') return { ...value, value: encodeTagged(value.value as Value) };
      return typeof value === 'bigint' ? value.toString() : value;
    }),
  ) as Json;
}

function decodeExpr(json: unknown): Expr {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isRecord(node)) return node;
    if (node.kind === 'literal') return { ...node, value: toValue(decodeTagged(node.value)) };
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value);
    return out;
  };
  return walk(json) as Expr;
}

/** The names a function body reads that are not its own: what its closure must carry. */
function freeNames(expr: Expr, into: Set<string>): void {
  const stack: Expr[] = [expr];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'identifier') into.add(node.name);
    stack.push(...childrenOf(node));
  }
}

function captured(names: Set<string>, env: Env): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const name of names) {
    const value = env.lookup(name);
    if (value !== undefined) setField(out, name, encodeValue(value));
  }
  if (env.self !== undefined) out['\u0000this'] = encodeValue(env.self.value);
  return out;
}

function restore(json: unknown, globals: GlobalLookup): Env {
  if (!isRecord(json)) throw corrupt();
  const vars = new Map<string, FqlValue>();
  let self: FqlValue | undefined;
  for (const [name, value] of Object.entries(json)) {
    if (name === '\u0000this') self = decodeValue(value, globals);
    else vars.set(name, decodeValue(value, globals));
  }
  const env = Env.of(vars);
  return self === undefined ? env : env.withThis(self);
}

function encodeLambda(fn: Lambda): Json {
  const names = new Set<string>();
  freeNames(fn.expr.body, names);
  return { expr: encodeExpr(fn.expr), env: captured(names, fn.closure) };
}

function decodeLambda(json: unknown, globals: GlobalLookup): Lambda {
  if (!isRecord(json)) throw corrupt();
  const expr = decodeExpr(json.expr);
  if (expr.kind !== 'lambda') throw corrupt();
  return new Lambda(expr as LambdaExpr, restore(json.env, globals));
}

// ---------------------------------------------------------------------------------------------- sets

export function encodeSet(set: FqlSet): Json {
  return { source: encodeSource(set.source), ops: set.ops.map(encodeOp) };
}

export function decodeSet(json: unknown, globals: GlobalLookup): FqlSet {
  if (!isRecord(json) || !Array.isArray(json.ops)) throw corrupt();
  return new FqlSet(
    decodeSource(json.source, globals),
    json.ops.map((op) => decodeOp(op, globals)),
  );
}

function encodeSource(source: SetSource): Json {
  switch (source.kind) {
    case 'documents':
      return { kind: 'documents', collection: { ...source.collection } };
    case 'index':
      return {
        kind: 'index',
        collection: source.collection,
        index: JSON.parse(JSON.stringify(source.index)) as Json,
        terms: source.terms.map(encodeValue),
      };
    case 'single':
      return { kind: 'single', value: encodeValue(source.value) };
    case 'array':
      return { kind: 'array', items: source.items.map(encodeValue) };
    case 'sequence':
      return { kind: 'sequence', from: source.from.toString(), until: source.until.toString() };
    case 'concat':
      return { kind: 'concat', parts: source.parts.map(encodeSet) };
  }
}

function decodeSource(json: unknown, globals: GlobalLookup): SetSource {
  if (!isRecord(json)) throw corrupt();
  switch (json.kind) {
    case 'documents':
      return {
        kind: 'documents',
        collection: json.collection as SetSource & { kind: 'documents' } extends { collection: infer C } ? C : never,
      };
    case 'index':
      return {
        kind: 'index',
        collection: String(json.collection),
        index: json.index as Extract<SetSource, { kind: 'index' }>['index'],
        terms: (json.terms as unknown[]).map((t) => decodeValue(t, globals)),
      };
    case 'single':
      return { kind: 'single', value: decodeValue(json.value, globals) };
    case 'array':
      return { kind: 'array', items: (json.items as unknown[]).map((t) => decodeValue(t, globals)) };
    case 'sequence':
      return { kind: 'sequence', from: BigInt(String(json.from)), until: BigInt(String(json.until)) };
    case 'concat':
      return { kind: 'concat', parts: (json.parts as unknown[]).map((p) => decodeSet(p, globals)) };
    default:
      throw corrupt();
  }
}

function encodeOp(op: SetOp): Json {
  switch (op.kind) {
    case 'where':
    case 'map':
    case 'flatMap':
      return { kind: op.kind, fn: encodeValue(op.fn), span: spanJson(op.span) };
    case 'project': {
      const names = new Set<string>();
      for (const field of op.fields) freeNames(field.value, names);
      return {
        kind: 'project',
        fields: op.fields.map((f) => ({ name: f.name, value: encodeExpr(f.value), span: spanJson(f.span) })),
        env: captured(names, op.env),
        span: spanJson(op.span),
      };
    }
    case 'take':
    case 'drop':
      return { kind: op.kind, count: op.count, span: spanJson(op.span) };
    case 'order':
      return {
        kind: 'order',
        orderings: op.orderings.map((o) => ({ fn: o.fn === null ? null : encodeValue(o.fn), desc: o.desc })),
        span: spanJson(op.span),
      };
    case 'reverse':
    case 'distinct':
      return { kind: op.kind, span: spanJson(op.span) };
  }
}

function decodeOp(json: unknown, globals: GlobalLookup): SetOp {
  if (!isRecord(json)) throw corrupt();
  const span = json.span as SetOp['span'];
  switch (json.kind) {
    case 'where':
    case 'map':
    case 'flatMap': {
      const fn = decodeValue(json.fn, globals);
      if (!(fn instanceof Lambda || fn instanceof NativeFunction)) throw corrupt();
      return { kind: json.kind, fn, span };
    }
    case 'project':
      return {
        kind: 'project',
        fields: (json.fields as Record<string, unknown>[]).map((f) => ({
          name: String(f.name),
          value: decodeExpr(f.value),
          span: f.span as ProjectionField['span'],
        })),
        env: restore(json.env, globals),
        span,
      };
    case 'take':
    case 'drop':
      return { kind: json.kind, count: Number(json.count), span };
    case 'order':
      return {
        kind: 'order',
        orderings: (json.orderings as Record<string, unknown>[]).map((o) => {
          const fn = o.fn === null ? null : decodeValue(o.fn, globals);
          if (fn !== null && !(fn instanceof Lambda || fn instanceof NativeFunction)) throw corrupt();
          return { fn, desc: o.desc === true };
        }),
        span,
      };
    case 'reverse':
    case 'distinct':
      return { kind: json.kind, span };
    default:
      throw corrupt();
  }
}

function spanJson(span: SetOp['span']): Json {
  return JSON.parse(JSON.stringify(span)) as Json;
}
