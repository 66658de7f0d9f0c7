/**
 * The FQL v10 functions and methods the reference server has (fauna/faunadb `runtime/fql2/stdlib/`): global
 * functions (`abort`, `newId`, `log`, `dbg`), modules (`Collection`, `Database`, `Key`, `Time`, `Date`, `Math`,
 * `Set`, `Object`, user collections) and the methods of strings, numbers, arrays, objects, sets, documents, times
 * and event sources. A method is found on the receiver's type when called (interpreter.ts `callMethod`).
 */
import { parseDate, parseTime } from '../../codec/tagged.js';
import { QueryError } from '../../errors/query-error.js';
import { storeResolver } from '../../event-source/source-resolver.js';
import { eventSourceOf, withStep } from './event-source-plan.js';
import { DateValue, isObjectValue, Ref, Time, type ObjectValue, type Value } from '../../values/value.js';
import { runtimeError } from '../fql-error.js';
import { NO_SPAN, type SourceSpan } from '../source-position.js';
import { convertV4Error, documentId } from './documents.js';
import { checkArity, invalidArgumentType, type Arity, type Interpreter } from './interpreter.js';
import { materialize, pageCursor, readCursor } from './render.js';
import { FqlSet, MAX_MATERIALIZED_ELEMENTS, type IndexDefinition, type Ordering } from './sets.js';
import { displayString } from './strings.js';
import {
  DocRef,
  EventSourceValue,
  FqlModule,
  isFqlObject,
  isNullish,
  Lambda,
  NATIVE_MODULES,
  NativeFunction,
  typeNameOf,
  type CollectionHandle,
  type FqlCallable,
  type FqlObject,
  type FqlValue,
} from './values.js';

/** Where a method is called: its argument list (where errors point), its name and each argument. */
export interface MethodCall {
  readonly span: SourceSpan;
  readonly nameSpan: SourceSpan;
  readonly argSpans: readonly SourceSpan[];
}

export interface Method {
  readonly arity: Arity;
  call(args: readonly FqlValue[], call: MethodCall): FqlValue | Promise<FqlValue>;
}

type MethodTable = Readonly<Record<string, Method>>;

function method(arity: Arity, call: Method['call']): Method {
  return { arity, call };
}

/** The set page size when a set is rendered or paginated without one (fauna/faunadb `ValueSet.DefaultPageSize`). */
export const DEFAULT_PAGE_SIZE = 16;
const MAX_PAGE_SIZE = 100_000;

/** Modules of the native collections, by v10 name. */
const NATIVE_OF_MODULE: ReadonlyMap<string, string> = new Map(Object.entries(NATIVE_MODULES).map(([native, module]) => [module, native]));

/** The modules of FQL a name can refer to without a collection of that name. */
const MODULES = new Set([
  ...NATIVE_OF_MODULE.keys(),
  'Time',
  'Date',
  'Math',
  'Set',
  'Object',
  'String',
  'Number',
  'Boolean',
  'Array',
  'Null',
  'Int',
  'Long',
  'Double',
]);

/** Names a collection cannot have: the modules and types of FQL, and its keywords. */
const RESERVED_IDENTIFIERS = new Set([
  ...MODULES,
  'Float',
  'Bytes',
  'Query',
  'FQL',
  'ID',
  'UUID',
  'TransactionTime',
  'Any',
  'Never',
  'Struct',
  'EventSource',
  'if',
  'else',
  'at',
  'match',
  'case',
  'let',
  'null',
  'true',
  'false',
  'isa',
  'join',
  'on',
  'of',
  '_',
]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

// ---------------------------------------------------------------------------------------------- arguments

function fnArg(value: FqlValue | undefined, name: string, span: SourceSpan): FqlCallable {
  if (value instanceof Lambda || value instanceof NativeFunction) return value;
  throw invalidArgumentType(name, 'Function', value ?? null, span);
}

function intArg(value: FqlValue | undefined, name: string, span: SourceSpan): bigint {
  if (typeof value === 'bigint') return value;
  throw invalidArgumentType(name, 'Int', value ?? null, span);
}

function numberArg(value: FqlValue | undefined, name: string, span: SourceSpan): number {
  if (typeof value === 'bigint' || typeof value === 'number') return Number(value);
  throw invalidArgumentType(name, 'Number', value ?? null, span);
}

function stringArg(value: FqlValue | undefined, name: string, span: SourceSpan): string {
  if (typeof value === 'string') return value;
  throw invalidArgumentType(name, 'String', value ?? null, span);
}

function objectArg(value: FqlValue | undefined, name: string, span: SourceSpan): FqlObject {
  if (isFqlObject(value)) return value;
  throw invalidArgumentType(name, '{ *: Any }', value ?? null, span);
}

function arrayArg(value: FqlValue | undefined, name: string, span: SourceSpan): FqlValue[] {
  if (Array.isArray(value)) return value;
  throw invalidArgumentType(name, 'Array', value ?? null, span);
}

function argSpan(call: MethodCall, i: number): SourceSpan {
  return call.argSpans[i] ?? call.span;
}

// ---------------------------------------------------------------------------------------------- globals

/** A name no variable binds: a module, a global function, or a user collection. */
export function globalValue(rt: Interpreter, name: string): FqlValue | undefined {
  const fn = GLOBAL_FUNCTIONS(rt)[name];
  if (fn !== undefined) return fn;
  if (MODULES.has(name)) return new FqlModule(name);
  if (rt.documents.collectionExists(name)) return new FqlModule(name, name);
  return undefined;
}

function GLOBAL_FUNCTIONS(rt: Interpreter): Readonly<Record<string, NativeFunction>> {
  return {
    // Implements: FQL-ERR-001
    abort: new NativeFunction('abort', (args, call) => {
      checkArity(1, args.length, call.span);
      return materialize(rt, args[0] as FqlValue).then((value) => {
        throw runtimeError('abort', call.span, 'Query aborted.', { abort: value });
      });
    }),
    newId: new NativeFunction('newId', (args, call) => {
      checkArity(0, args.length, call.span);
      return rt.ctx.txn.newDocumentId();
    }),
    log: new NativeFunction('log', () => null),
    dbg: new NativeFunction('dbg', (args, call) => {
      checkArity(1, args.length, call.span);
      return args[0] as FqlValue;
    }),
  };
}

/** Calling a module: `Time("…")`, `Date("…")`, `Product("123")` (a document by id). */
export function moduleCall(module: FqlModule, args: readonly FqlValue[], call: MethodCall): Promise<FqlValue> | undefined {
  if (module.collection !== undefined) {
    return Promise.resolve().then(() => {
      checkArity(1, args.length, call.span);
      return new DocRef({ kind: 'user', name: module.collection as string }, documentId(args[0] as FqlValue, argSpan(call, 0)));
    });
  }
  if (module.name === 'Time' || module.name === 'Date') {
    return Promise.resolve().then(() => {
      checkArity(1, args.length, call.span);
      return module.name === 'Time'
        ? timeOf(stringArg(args[0], 'time', argSpan(call, 0)), call.span)
        : dateOf(stringArg(args[0], 'date', argSpan(call, 0)), call.span);
    });
  }
  return undefined;
}

// Implements: FQL-TIME-001
function timeOf(text: string, span: SourceSpan): Time {
  try {
    return parseTime(text);
  } catch {
    throw runtimeError('invalid_time', span, `\`${text}\` is not a valid time.`);
  }
}

// Implements: FQL-TIME-002
function dateOf(text: string, span: SourceSpan): DateValue {
  try {
    return parseDate(text);
  } catch {
    throw runtimeError('invalid_date', span, `\`${text}\` is not a valid date.`);
  }
}

// ---------------------------------------------------------------------------------------------- dispatch

export function methodOf(rt: Interpreter, receiver: FqlValue, name: string): Method | undefined {
  let table: MethodTable;
  if (typeof receiver === 'string') table = stringMethods(rt, receiver);
  else if (typeof receiver === 'bigint' || typeof receiver === 'number' || typeof receiver === 'boolean')
    table = scalarMethods(rt, receiver);
  else if (Array.isArray(receiver)) table = arrayMethods(rt, receiver);
  else if (receiver instanceof FqlSet) table = setMethods(rt, receiver);
  else if (receiver instanceof DocRef) table = documentMethods(rt, receiver);
  else if (receiver instanceof FqlModule) table = moduleMethods(rt, receiver);
  else if (receiver instanceof Time || receiver instanceof DateValue) table = timeMethods(rt, receiver);
  else if (receiver instanceof EventSourceValue) table = eventSourceMethods(rt, receiver);
  else if (isFqlObject(receiver)) table = objectMethods(rt, receiver);
  else return undefined;
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

function toStringMethod(rt: Interpreter, value: FqlValue): Method {
  return method(0, () => displayString(rt, value));
}

function scalarMethods(rt: Interpreter, value: bigint | number | boolean): MethodTable {
  return { toString: toStringMethod(rt, value) };
}

function objectMethods(rt: Interpreter, value: FqlObject): MethodTable {
  return { toString: toStringMethod(rt, value) };
}

// ---------------------------------------------------------------------------------------------- strings

function stringMethods(rt: Interpreter, self: string): MethodTable {
  return {
    toString: toStringMethod(rt, self),
    concat: method(1, (args, call) => self + stringArg(args[0], 'other', call.span)),
    toUpperCase: method(0, () => self.toUpperCase()),
    toLowerCase: method(0, () => self.toLowerCase()),
    includes: method(1, (args, call) => self.includes(stringArg(args[0], 'pattern', call.span))),
    startsWith: method(1, (args, call) => self.startsWith(stringArg(args[0], 'prefix', call.span))),
    endsWith: method(1, (args, call) => self.endsWith(stringArg(args[0], 'suffix', call.span))),
    indexOf: method([1, 2], (args, call) =>
      BigInt(
        self.indexOf(stringArg(args[0], 'pattern', call.span), args[1] === undefined ? 0 : Number(intArg(args[1], 'start', call.span))),
      ),
    ),
    split: method(1, (args, call) => self.split(stringArg(args[0], 'separator', call.span))),
    slice: method([1, 2], (args, call) =>
      self.slice(
        Number(intArg(args[0], 'start', call.span)),
        args[1] === undefined ? undefined : Number(intArg(args[1], 'end', call.span)),
      ),
    ),
    replace: method(2, (args, call) =>
      self.replace(stringArg(args[0], 'pattern', call.span), () => stringArg(args[1], 'replacement', call.span)),
    ),
    replaceAll: method(2, (args, call) =>
      self.replaceAll(stringArg(args[0], 'pattern', call.span), () => stringArg(args[1], 'replacement', call.span)),
    ),
    trim: method(0, () => self.trim()),
    trimStart: method(0, () => self.trimStart()),
    trimEnd: method(0, () => self.trimEnd()),
    at: method(1, (args, call) => {
      const i = Number(intArg(args[0], 'index', call.span));
      if (i < 0 || i >= self.length)
        throw runtimeError('index_out_of_bounds', call.span, `index ${i} out of bounds for length ${self.length}`);
      return self[i] as string;
    }),
    parseInt: method(0, () => (/^[+-]?\d+$/.test(self.trim()) ? BigInt(self.trim()) : null)),
    parseDouble: method(0, () => {
      const n = Number(self.trim());
      return self.trim() === '' || Number.isNaN(n) ? null : n;
    }),
  };
}

// ---------------------------------------------------------------------------------------------- arrays

function arrayMethods(rt: Interpreter, self: FqlValue[]): MethodTable {
  const each = async (
    fnValue: FqlValue | undefined,
    call: MethodCall,
    visit: (result: FqlValue, item: FqlValue, index: number) => boolean | undefined,
  ): Promise<void> => {
    const fn = fnArg(fnValue, 'func', argSpan(call, 0));
    for (const [index, item] of self.entries()) if (visit(await rt.call(fn, [item], call.span), item, index) === false) return;
  };
  return {
    toString: toStringMethod(rt, self),
    map: method(1, async (args, call) => {
      const out: FqlValue[] = [];
      await each(args[0], call, (result) => void out.push(result));
      return out;
    }),
    forEach: method(1, async (args, call) => {
      await each(args[0], call, () => undefined);
      return null;
    }),
    where: method(1, async (args, call) => {
      const out: FqlValue[] = [];
      await each(args[0], call, (result, item) => void (rt.predicate(result, call.span) && out.push(item)));
      return out;
    }),
    flatMap: method(1, async (args, call) => {
      const out: FqlValue[] = [];
      const fn = fnArg(args[0], 'func', argSpan(call, 0));
      for (const item of self) out.push(...(await rt.elementsOf(await rt.call(fn, [item], call.span), call.span)));
      return out;
    }),
    firstWhere: method(1, async (args, call) => {
      let found: FqlValue = null;
      await each(args[0], call, (result, item) => {
        if (!rt.predicate(result, call.span)) return true;
        found = item;
        return false;
      });
      return found;
    }),
    lastWhere: method(1, async (args, call) => {
      let found: FqlValue = null;
      await each(args[0], call, (result, item) => {
        if (rt.predicate(result, call.span)) found = item;
        return undefined;
      });
      return found;
    }),
    every: method(1, async (args, call) => {
      let all = true;
      await each(args[0], call, (result) => {
        if (rt.predicate(result, call.span)) return true;
        all = false;
        return false;
      });
      return all;
    }),
    any: method(1, async (args, call) => {
      let some = false;
      await each(args[0], call, (result) => {
        if (!rt.predicate(result, call.span)) return true;
        some = true;
        return false;
      });
      return some;
    }),
    first: method(0, () => self[0] ?? null),
    last: method(0, () => self[self.length - 1] ?? null),
    isEmpty: method(0, () => self.length === 0),
    nonEmpty: method(0, () => self.length > 0),
    includes: method(1, async (args) => {
      for (const item of self) if (await rt.equal(item, args[0] as FqlValue)) return true;
      return false;
    }),
    indexOf: method(1, async (args) => {
      for (const [i, item] of self.entries()) if (await rt.equal(item, args[0] as FqlValue)) return BigInt(i);
      return null;
    }),
    concat: method(1, (args, call) => [...self, ...arrayArg(args[0], 'other', call.span)]),
    append: method(1, (args) => [...self, args[0] as FqlValue]),
    prepend: method(1, (args) => [args[0] as FqlValue, ...self]),
    slice: method([1, 2], (args, call) =>
      self.slice(
        Number(intArg(args[0], 'from', call.span)),
        args[1] === undefined ? undefined : Number(intArg(args[1], 'until', call.span)),
      ),
    ),
    take: method(1, (args, call) => self.slice(0, Math.max(0, Number(intArg(args[0], 'limit', call.span))))),
    drop: method(1, (args, call) => self.slice(Math.max(0, Number(intArg(args[0], 'amount', call.span))))),
    reverse: method(0, () => [...self].reverse()),
    flatten: method(0, (_args, call) => self.flatMap((item) => arrayArg(item, 'element', call.span))),
    distinct: method(0, () => rt.elements(new FqlSet({ kind: 'array', items: self }, [{ kind: 'distinct', span: NO_SPAN }]))),
    order: method([0, undefined], (args, call) =>
      rt.elements(new FqlSet({ kind: 'array', items: self }, [{ kind: 'order', orderings: orderingsOf(args, call), span: call.span }])),
    ),
    toSet: method(0, () => new FqlSet({ kind: 'array', items: self })),
    toArray: method(0, () => self),
    fold: method(2, async (args, call) => {
      const fn = fnArg(args[1], 'reducer', argSpan(call, 1));
      let acc = args[0] as FqlValue;
      for (const item of self) acc = await rt.call(fn, [acc, item], call.span);
      return acc;
    }),
    reduce: method(1, async (args, call) => {
      const fn = fnArg(args[0], 'reducer', argSpan(call, 0));
      if (self.length === 0) return null;
      let acc = self[0] as FqlValue;
      for (const item of self.slice(1)) acc = await rt.call(fn, [acc, item], call.span);
      return acc;
    }),
    at: method(1, (args, call) => rt.access(self, intArg(args[0], 'index', call.span), call.span)),
  };
}

/** `order(.a, desc(.b))`: accessors; `asc`/`desc` results are objects `{ asc|desc: fn }`. */
function orderingsOf(args: readonly FqlValue[], call: MethodCall): Ordering[] {
  if (args.length === 0) return [{ fn: null, desc: false }];
  return args.map((arg, i) => {
    if (isFqlObject(arg) && (Object.hasOwn(arg, 'desc') || Object.hasOwn(arg, 'asc'))) {
      const desc = Object.hasOwn(arg, 'desc');
      const fn = arg[desc ? 'desc' : 'asc'] as FqlValue;
      return { fn: fnArg(fn, 'ordering', argSpan(call, i)), desc };
    }
    return { fn: fnArg(arg, 'ordering', argSpan(call, i)), desc: false };
  });
}

// ---------------------------------------------------------------------------------------------- sets

// Implements: FQL-SET-001, FQL-SET-003, FQL-SET-005
function setMethods(rt: Interpreter, self: FqlSet): MethodTable {
  const elements = () => rt.elements(self);
  const firstOf = () => rt.elements(self.prefix(1));
  const fnStep = (kind: 'where' | 'map' | 'flatMap') =>
    method(1, (args, call) =>
      self.with({ kind, fn: fnArg(args[0], kind === 'where' ? 'predicate' : 'mapper', argSpan(call, 0)), span: call.span }),
    );
  const viaArray = (name: string) =>
    method([0, undefined], async (args, call) => {
      const table = arrayMethods(rt, await elements());
      const found = table[name] as Method;
      checkArity(found.arity, args.length, call.span);
      return found.call(args, call);
    });
  const source = (name: string) =>
    method([0, undefined], async (args, call) => rt.eventSource(eventSourceOf(self, name, args, call.span, call.argSpans), call.span));
  return {
    toString: method(0, () => '[set]'),
    where: fnStep('where'),
    map: fnStep('map'),
    flatMap: fnStep('flatMap'),
    take: method(1, (args, call) =>
      self.with({ kind: 'take', count: Math.max(0, Number(intArg(args[0], 'limit', call.span))), span: call.span }),
    ),
    drop: method(1, (args, call) =>
      self.with({ kind: 'drop', count: Math.max(0, Number(intArg(args[0], 'amount', call.span))), span: call.span }),
    ),
    reverse: method(0, (_args, call) => self.with({ kind: 'reverse', span: call.span })),
    distinct: method(0, (_args, call) => self.with({ kind: 'distinct', span: call.span })),
    order: method([0, undefined], (args, call) => self.with({ kind: 'order', orderings: orderingsOf(args, call), span: call.span })),
    concat: method(1, (args, call) => {
      const other = args[0];
      if (!(other instanceof FqlSet)) throw invalidArgumentType('other', 'Set', other ?? null, argSpan(call, 0));
      return new FqlSet({ kind: 'concat', parts: [self, other] });
    }),
    toArray: method(0, (_args, call) => rt.elements(self, { elements: MAX_MATERIALIZED_ELEMENTS, span: call.span })),
    toSet: method(0, () => self),
    count: method(0, async () => BigInt((await elements()).length)),
    first: method(0, async () => (await firstOf())[0] ?? null),
    last: method(0, async () => {
      const all = await elements();
      return all[all.length - 1] ?? null;
    }),
    isEmpty: method(0, async () => (await firstOf()).length === 0),
    nonEmpty: method(0, async () => (await firstOf()).length > 0),
    forEach: method(1, async (args, call) => {
      const fn = fnArg(args[0], 'func', argSpan(call, 0));
      for (const item of await elements()) await rt.call(fn, [item], call.span);
      return null;
    }),
    firstWhere: viaArray('firstWhere'),
    lastWhere: viaArray('lastWhere'),
    includes: viaArray('includes'),
    every: viaArray('every'),
    any: viaArray('any'),
    fold: viaArray('fold'),
    reduce: viaArray('reduce'),
    paginate: method([0, 1], async (args, call) => {
      const size = args[0] === undefined ? DEFAULT_PAGE_SIZE : Number(intArg(args[0], 'size', call.span));
      if (size < 1 || size > MAX_PAGE_SIZE)
        throw runtimeError(
          'invalid_bounds',
          call.span,
          `expected \`size\` to be greater than or equal to 1 and less than or equal to ${MAX_PAGE_SIZE}, received ${size}`,
        );
      return page(rt, self, 0, size);
    }),
    pageSize: method(1, (args, call) => {
      intArg(args[0], 'size', call.span);
      return self;
    }),
    eventSource: source('eventSource'),
    toStream: source('toStream'),
    eventsOn: source('eventsOn'),
    changesOn: source('changesOn'),
  };
}

/** `{ data, after }` of one page of a set, from `offset`. */
// Implements: FQL-SET-002, FQL-SET-003
export async function page(rt: Interpreter, set: FqlSet, offset: number, size: number): Promise<FqlObject> {
  // One past the page says whether another follows.
  const all = await rt.elements(set.prefix(offset + size + 1));
  const data = all.slice(offset, offset + size);
  const out: FqlObject = { data };
  if (offset + size < all.length) out.after = pageCursor(set, offset + size, size);
  return out;
}

// ---------------------------------------------------------------------------------------------- event sources

function eventSourceMethods(rt: Interpreter, self: EventSourceValue): MethodTable {
  const step = (kind: 'where' | 'map') =>
    method(1, async (args, call) =>
      rt.eventSource(
        withStep(self.spec, { kind, fn: fnArg(args[0], kind === 'where' ? 'predicate' : 'mapper', argSpan(call, 0)), span: call.span }),
        call.span,
      ),
    );
  return { where: step('where'), map: step('map'), toString: method(0, () => '[event source]') };
}

// ---------------------------------------------------------------------------------------------- documents

// Implements: FQL-DOC-002, FQL-DOC-003, FQL-DOC-004
function documentMethods(rt: Interpreter, self: DocRef): MethodTable {
  const patch = (replace: boolean, dataOnly: boolean) =>
    method(1, async (args, call) => {
      const fields = objectArg(args[0], 'data', argSpan(call, 0));
      return rt.documents.writeDocument(self, dataOnly ? withoutReserved(fields) : fields, replace, call.span);
    });
  return {
    toString: method(0, () => displayString(rt, self)),
    exists: method(0, () => rt.documents.exists(self)),
    update: patch(false, false),
    replace: patch(true, false),
    updateData: patch(false, true),
    replaceData: patch(true, true),
    delete: method(0, (_args, call) => rt.documents.deleteDocument(self, call.span)),
  };
}

function withoutReserved(fields: FqlObject): FqlObject {
  const out: FqlObject = {};
  for (const [key, value] of Object.entries(fields)) if (!['id', 'coll', 'ts', 'ttl'].includes(key)) out[key] = value;
  return out;
}

// ---------------------------------------------------------------------------------------------- modules

function moduleMethods(rt: Interpreter, module: FqlModule): MethodTable {
  if (module.collection !== undefined) return userCollectionMethods(rt, module.collection);
  const native = NATIVE_OF_MODULE.get(module.name);
  if (native !== undefined) return nativeCollectionMethods(rt, module.name, native);
  switch (module.name) {
    // Implements: FQL-TIME-001, FQL-TIME-002
    case 'Time':
      return {
        now: method(0, () => rt.host.now),
        fromString: method(1, (args, call) => timeOf(stringArg(args[0], 'time', argSpan(call, 0)), call.span)),
        epoch: method(2, (args, call) => {
          const n = intArg(args[0], 'offset', argSpan(call, 0));
          return new Time(n * unitNanos(stringArg(args[1], 'unit', argSpan(call, 1)), call.span));
        }),
      };
    case 'Date':
      return {
        today: method(0, () => new DateValue(Number(rt.host.now.epochNanos / 1_000_000n / 86_400_000n))),
        fromString: method(1, (args, call) => dateOf(stringArg(args[0], 'date', argSpan(call, 0)), call.span)),
      };
    case 'Math':
      return mathMethods();
    // Implements: FQL-SET-002, FQL-SET-004
    case 'Set':
      return {
        single: method(1, (args) => new FqlSet({ kind: 'single', value: args[0] as FqlValue })),
        sequence: method(
          2,
          (args, call) =>
            new FqlSet({
              kind: 'sequence',
              from: intArg(args[0], 'from', argSpan(call, 0)),
              until: intArg(args[1], 'until', argSpan(call, 1)),
            }),
        ),
        paginate: method([1, 2], async (args, call) => {
          const cursor = readCursor(rt, stringArg(args[0], 'cursor', argSpan(call, 0)), call.span);
          const size = args[1] === undefined ? cursor.size : Number(intArg(args[1], 'size', argSpan(call, 1)));
          return page(rt, cursor.set, cursor.offset, size);
        }),
      };
    case 'Object':
      return {
        keys: method(1, (args, call) => Object.keys(objectArg(args[0], 'object', call.span))),
        values: method(1, (args, call) => Object.values(objectArg(args[0], 'object', call.span))),
        entries: method(1, (args, call) => Object.entries(objectArg(args[0], 'object', call.span)).map(([k, v]) => [k, v])),
        fromEntries: method(1, (args, call) => {
          const out: FqlObject = {};
          for (const entry of arrayArg(args[0], 'entries', call.span)) {
            const pair = arrayArg(entry, 'entry', call.span);
            out[stringArg(pair[0], 'key', call.span)] = pair[1] ?? null;
          }
          return out;
        }),
        assign: method(2, (args, call) => ({
          ...objectArg(args[0], 'destination', call.span),
          ...objectArg(args[1], 'source', call.span),
        })),
      };
    default:
      return {};
  }
}

function mathMethods(): MethodTable {
  const unary = (fn: (n: number) => number, keepsIntegers: boolean) =>
    method(1, (args, call) => {
      const x = args[0];
      if (keepsIntegers && typeof x === 'bigint') return x;
      return fn(numberArg(x, 'x', call.span));
    });
  return {
    abs: method(1, (args, call) => {
      const x = args[0];
      if (typeof x === 'bigint') return x < 0n ? -x : x;
      return Math.abs(numberArg(x, 'x', call.span));
    }),
    ceil: unary(Math.ceil, true),
    floor: unary(Math.floor, true),
    round: method([1, 2], (args, call) => {
      const x = args[0];
      if (typeof x === 'bigint') return x;
      const places = args[1] === undefined ? 0 : Number(intArg(args[1], 'precision', call.span));
      const factor = 10 ** places;
      return Math.round(numberArg(x, 'x', call.span) * factor) / factor;
    }),
    trunc: unary(Math.trunc, true),
    sqrt: unary(Math.sqrt, false),
    pow: method(2, (args, call) => numberArg(args[0], 'x', call.span) ** numberArg(args[1], 'exponent', call.span)),
    max: method(
      2,
      (args, call) => (numberArg(args[0], 'x', call.span) >= numberArg(args[1], 'y', call.span) ? args[0] : args[1]) as FqlValue,
    ),
    min: method(
      2,
      (args, call) => (numberArg(args[0], 'x', call.span) <= numberArg(args[1], 'y', call.span) ? args[0] : args[1]) as FqlValue,
    ),
    log: unary(Math.log, false),
    log10: unary(Math.log10, false),
    exp: unary(Math.exp, false),
    sum: method(1, (args, call) => {
      const items = arrayArg(args[0], 'numbers', call.span);
      if (items.every((n) => typeof n === 'bigint')) return (items as bigint[]).reduce((a, b) => a + b, 0n);
      return items.reduce<number>((a, b) => a + numberArg(b, 'numbers', call.span), 0);
    }),
    mean: method(1, (args, call) => {
      const items = arrayArg(args[0], 'numbers', call.span);
      return items.reduce<number>((a, b) => a + numberArg(b, 'numbers', call.span), 0) / items.length;
    }),
  };
}

/** What every collection's module has: its documents as a set, filtered, and the first that passes a predicate. */
function documentSetMethods(rt: Interpreter, collection: CollectionHandle): Record<string, Method> {
  const all = () => new FqlSet({ kind: 'documents', collection });
  return {
    all: method(0, () => all()),
    where: method(1, (args, call) => all().with({ kind: 'where', fn: fnArg(args[0], 'predicate', argSpan(call, 0)), span: call.span })),
    firstWhere: method(1, async (args, call) => {
      const fn = fnArg(args[0], 'predicate', argSpan(call, 0));
      for (const doc of await rt.elements(all())) if (rt.predicate(await rt.call(fn, [doc], call.span), call.span)) return doc;
      return null;
    }),
  };
}

/** `Collection`, `Database`, `Key`, …: the native collections' modules. */
// Implements: FQL-SCHEMA-001, FQL-SCHEMA-003, FQL-SCHEMA-005
function nativeCollectionMethods(rt: Interpreter, module: string, native: string): MethodTable {
  const handle = { kind: 'native' as const, native };
  const table: Record<string, Method> = {
    ...documentSetMethods(rt, handle),
    toString: method(0, () => module),
  };
  if (['collections', 'databases', 'roles', 'functions', 'access_providers'].includes(native)) {
    // A reference, read when used: `.exists()` is false and `== null` true for a name nothing has (fauna-js client.ts newDB).
    table.byName = method(1, (args, call) => new DocRef(handle, stringArg(args[0], 'name', argSpan(call, 0))));
  } else {
    table.byId = method(1, (args, call) => new DocRef(handle, documentId(args[0] as FqlValue, argSpan(call, 0))));
  }
  if (native === 'collections')
    table.create = method(1, (args, call) => createCollection(rt, objectArg(args[0], 'schema', argSpan(call, 0)), call.span));
  if (native === 'databases')
    table.create = method(1, (args, call) => createDatabase(rt, objectArg(args[0], 'schema', argSpan(call, 0)), call.span));
  if (native === 'keys') table.create = method(1, (args, call) => createKey(rt, objectArg(args[0], 'schema', argSpan(call, 0)), call.span));
  return table;
}

// Implements: FQL-SET-001, FQL-DOC-001, FQL-DOC-002, FQL-SCHEMA-004, FQL-SRC-003
/** A user collection's module: its documents, its indexes as methods, `create`, `byId`. */
function userCollectionMethods(rt: Interpreter, collection: string): MethodTable {
  const handle = { kind: 'user' as const, name: collection };
  const table: Record<string, Method> = {
    ...documentSetMethods(rt, handle),
    byId: method(1, (args, call) => new DocRef(handle, documentId(args[0] as FqlValue, argSpan(call, 0)))),
    create: method(1, (args, call) => rt.documents.createDocument(collection, objectArg(args[0], 'data', argSpan(call, 0)), call.span)),
    createData: method(1, (args, call) =>
      rt.documents.createDocument(collection, withoutReserved(objectArg(args[0], 'data', argSpan(call, 0))), call.span),
    ),
    toString: method(0, () => collection),
  };
  for (const index of indexesOf(rt, collection)) {
    table[index.name] = method(
      [index.terms.length, index.terms.length],
      (args) => new FqlSet({ kind: 'index', collection, index, terms: [...args] }),
    );
  }
  return table;
}

/**
 * The indexes `Coll.<name>(…)` reaches: those the collection defines in its `indexes` field, and, as before this
 * server read them (DEC-009), the v4 indexes whose only source is the collection and whose terms and values are
 * document fields.
 */
function indexesOf(rt: Interpreter, collection: string): IndexDefinition[] {
  const record = rt.ctx.txn.get(rt.ctx.database, 'collections', collection);
  const out: IndexDefinition[] = [];
  const defined = record?.fields.indexes;
  if (isObjectValue(defined)) {
    for (const [name, definition] of Object.entries(defined)) {
      if (!isObjectValue(definition)) continue;
      const terms = fieldList(definition.terms).map((entry) => entry.path);
      out.push({ name, terms, values: fieldList(definition.values) });
    }
  }
  const resolver = storeResolver(rt.ctx.txn.store, rt.ctx.database, rt.ctx.txn.ts);
  for (const [name] of rt.ctx.txn.scan(rt.ctx.database, 'indexes')) {
    if (out.some((index) => index.name === name)) continue;
    const info = resolver.index(name);
    if (info === undefined || info.sourceCollection !== collection) continue;
    const path = (field: readonly string[]) =>
      field[0] === 'data' ? field.slice(1) : field.length === 1 && field[0] === 'ref' ? ['id'] : [...field];
    out.push({ name, terms: info.terms.map(path), values: info.values.map((field) => ({ path: path(field), desc: false })) });
  }
  return out;
}

/** `[{ field: ".a.b", order: "desc" }]` of an index definition as paths with their order. */
function fieldList(value: Value | undefined): { path: string[]; desc: boolean }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (!isObjectValue(entry)) return [];
    const path = fieldPath(entry.field);
    return path === undefined ? [] : [{ path, desc: entry.order === 'desc' }];
  });
}

/** `.a.b`, `a.b` or `["a", "b"]` → `["a", "b"]`. */
export function fieldPath(field: Value | undefined): string[] | undefined {
  if (Array.isArray(field) && field.every((part): part is string => typeof part === 'string')) return field;
  if (typeof field !== 'string' || field === '') return undefined;
  const text = field.startsWith('.') ? field.slice(1) : field;
  const parts = text.split('.');
  return parts.every((part) => part !== '') ? parts : undefined;
}

// ---------------------------------------------------------------------------------------------- schema writes

function createFailure(kind: string, span: SourceSpan, failures: { paths: (string | number)[][]; message: string }[]) {
  return runtimeError('constraint_failure', span, `Failed to create ${kind}.`, { constraintFailures: failures });
}

/** The `name` of a collection or database: an identifier that is not reserved. */
// Implements: FQL-SCHEMA-002
function checkIdentifierName(kind: string, name: FqlValue | undefined, span: SourceSpan, reserved: boolean): string {
  if (name === undefined || isNullish(name)) throw createFailure(kind, span, [{ paths: [['name']], message: 'Missing required field.' }]);
  if (typeof name !== 'string')
    throw createFailure(kind, span, [{ paths: [['name']], message: `Expected String, provided ${typeNameOf(name)}` }]);
  if (!IDENTIFIER.test(name)) throw createFailure(kind, span, [{ paths: [['name']], message: 'Invalid identifier.' }]);
  if (reserved && RESERVED_IDENTIFIERS.has(name))
    throw createFailure(kind, span, [{ paths: [['name']], message: `The identifier \`${name}\` is reserved.` }]);
  return name;
}

function storedFields(rt: Interpreter, fields: FqlObject, skip: readonly string[], span: SourceSpan): ObjectValue {
  const out: ObjectValue = {};
  for (const [key, value] of Object.entries(fields)) {
    if (skip.includes(key) || isNullish(value)) continue;
    out[key] = rt.documents.toStored(value, key, span);
  }
  return out;
}

// Implements: FQL-SCHEMA-001, FQL-SCHEMA-002, FQL-SCHEMA-004
async function createCollection(rt: Interpreter, fields: FqlObject, span: SourceSpan): Promise<DocRef> {
  const name = checkIdentifierName('Collection', fields.name, span, true);
  const history = fields.history_days;
  if (history !== undefined && !isNullish(history) && (typeof history !== 'bigint' || history < 0n)) {
    throw createFailure('Collection', span, [
      {
        paths: [['history_days']],
        message: typeof history === 'bigint' ? 'Non-negative value required.' : `Expected Int | Null, provided ${typeNameOf(history)}`,
      },
    ]);
  }
  const data = fields.data;
  if (data !== undefined && !isNullish(data) && !isFqlObject(data))
    throw createFailure('Collection', span, [{ paths: [['data']], message: `Expected { *: Any } | Null, provided ${typeNameOf(data)}` }]);
  const indexes = fields.indexes;
  if (indexes !== undefined && !isNullish(indexes)) checkIndexes(indexes, span);
  const params = storedFields(rt, fields, ['coll', 'ts'], span);
  if (rt.documents.collectionExists(name))
    throw createFailure('Collection', span, [{ paths: [['name']], message: `A Collection already exists with the name \`${name}\`` }]);
  await schemaWrite(rt, { create_collection: params }, 'Collection', span);
  return new DocRef({ kind: 'native', native: 'collections' }, name);
}

/** `indexes: { name: { terms: [{ field }], values: [{ field, order }] } }`: names are identifiers, fields paths. */
function checkIndexes(indexes: FqlValue, span: SourceSpan): void {
  if (!isFqlObject(indexes))
    throw createFailure('Collection', span, [
      { paths: [['indexes']], message: `Expected { *: Any } | Null, provided ${typeNameOf(indexes)}` },
    ]);
  for (const [name, definition] of Object.entries(indexes)) {
    if (!IDENTIFIER.test(name)) throw createFailure('Collection', span, [{ paths: [['indexes']], message: 'Invalid identifier.' }]);
    if (!isFqlObject(definition))
      throw createFailure('Collection', span, [
        { paths: [['indexes', name]], message: `Expected { *: Any }, provided ${typeNameOf(definition)}` },
      ]);
    for (const part of ['terms', 'values']) {
      const list = definition[part];
      if (list === undefined || isNullish(list)) continue;
      if (!Array.isArray(list))
        throw createFailure('Collection', span, [
          { paths: [['indexes', name, part]], message: `Expected Array | Null, provided ${typeNameOf(list)}` },
        ]);
      list.forEach((entry, i) => {
        const field = isFqlObject(entry) ? entry.field : undefined;
        if (fieldPath(field as Value) === undefined)
          throw createFailure('Collection', span, [{ paths: [['indexes', name, part, i, 'field']], message: 'Invalid field path.' }]);
        const order = isFqlObject(entry) ? entry.order : undefined;
        if (order !== undefined && order !== null && order !== 'asc' && order !== 'desc') {
          throw createFailure('Collection', span, [
            { paths: [['indexes', name, part, i, 'order']], message: 'Expected "asc" | "desc" | Null' },
          ]);
        }
      });
    }
  }
}

// Implements: FQL-SCHEMA-005, FQL-SCHEMA-006
async function createDatabase(rt: Interpreter, fields: FqlObject, span: SourceSpan): Promise<DocRef> {
  const name = checkIdentifierName('Database', fields.name, span, false);
  for (const flag of ['typechecked', 'protected']) {
    const value = fields[flag];
    if (value !== undefined && !isNullish(value) && typeof value !== 'boolean')
      throw createFailure('Database', span, [{ paths: [[flag]], message: `Expected Boolean | Null, provided ${typeNameOf(value)}` }]);
  }
  const priority = fields.priority;
  if (priority !== undefined && !isNullish(priority) && (typeof priority !== 'bigint' || priority < 1n || priority > 500n)) {
    throw createFailure('Database', span, [
      {
        paths: [['priority']],
        message:
          typeof priority === 'bigint' ? 'Value must be between 1 and 500.' : `Expected Int | Null, provided ${typeNameOf(priority)}`,
      },
    ]);
  }
  if (rt.ctx.txn.get(rt.ctx.database, 'databases', name) !== undefined) {
    throw createFailure('Database', span, [{ paths: [['name']], message: `A Database already exists with the name \`${name}\`` }]);
  }
  await schemaWrite(rt, { create_database: storedFields(rt, fields, ['coll', 'ts', 'global_id'], span) }, 'Database', span);
  return new DocRef({ kind: 'native', native: 'databases' }, name);
}

/** `Key.create({ role, database?, data? })`: the key's document with its secret, shown this once. */
async function createKey(rt: Interpreter, fields: FqlObject, span: SourceSpan): Promise<FqlObject> {
  const params = storedFields(rt, fields, ['coll', 'ts', 'database'], span);
  const database = fields.database;
  if (typeof database === 'string') params.database = new Ref(database, new Ref('databases'));
  else if (database !== undefined && !isNullish(database))
    throw createFailure('Key', span, [{ paths: [['database']], message: `Expected String | Null, provided ${typeNameOf(database)}` }]);
  const created = await schemaWrite(rt, { create_key: params }, 'Key', span);
  if (!isObjectValue(created) || !(created.ref instanceof Ref)) throw new Error('CreateKey answered no ref');
  const doc = new DocRef({ kind: 'native', native: 'keys' }, created.ref.id);
  const out = await rt.documents.fields(doc, span);
  out.secret = created.secret as FqlValue;
  return out;
}

async function schemaWrite(rt: Interpreter, call: Record<string, Value>, kind: string, span: SourceSpan): Promise<Value> {
  try {
    return await rt.documents.v4(call);
  } catch (error) {
    if (error instanceof QueryError) {
      if (error.code === 'validation failed' || error.code === 'instance already exists') {
        throw createFailure(
          kind,
          span,
          (error.failures ?? [{ field: ['name'], code: '', description: error.description }]).map((failure) => ({
            paths: [failure.field],
            message: failure.description,
          })),
        );
      }
      throw convertV4Error(error, span);
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------- times

const UNIT_NANOS: Readonly<Record<string, bigint>> = {
  nanosecond: 1n,
  nanoseconds: 1n,
  microsecond: 1_000n,
  microseconds: 1_000n,
  millisecond: 1_000_000n,
  milliseconds: 1_000_000n,
  second: 1_000_000_000n,
  seconds: 1_000_000_000n,
  minute: 60_000_000_000n,
  minutes: 60_000_000_000n,
  hour: 3_600_000_000_000n,
  hours: 3_600_000_000_000n,
  day: 86_400_000_000_000n,
  days: 86_400_000_000_000n,
};

function unitNanos(unit: string, span: SourceSpan): bigint {
  const nanos = UNIT_NANOS[unit];
  if (nanos === undefined) throw runtimeError('invalid_unit', span, `\`${unit}\` is not a valid time unit.`);
  return nanos;
}

function timeMethods(rt: Interpreter, self: Time | DateValue): MethodTable {
  const isTime = self instanceof Time;
  const shift = (sign: 1n | -1n) =>
    method(2, (args, call) => {
      const amount = intArg(args[0], 'amount', argSpan(call, 0));
      const unit = stringArg(args[1], 'unit', argSpan(call, 1));
      if (self instanceof Time) return new Time(self.epochNanos + sign * amount * unitNanos(unit, call.span));
      if (unit !== 'days' && unit !== 'day') throw runtimeError('invalid_unit', call.span, `\`${unit}\` is not a valid date unit.`);
      return new DateValue(self.epochDays + Number(sign * amount));
    });
  const table: Record<string, Method> = {
    toString: method(0, () => displayString(rt, self)),
    add: shift(1n),
    subtract: shift(-1n),
    difference: method(2, (args, call) => {
      const other = args[0];
      const unit = stringArg(args[1], 'unit', argSpan(call, 1));
      if (self instanceof Time) {
        if (!(other instanceof Time)) throw invalidArgumentType('start', 'Time', other ?? null, argSpan(call, 0));
        return (self.epochNanos - other.epochNanos) / unitNanos(unit, call.span);
      }
      if (!(other instanceof DateValue)) throw invalidArgumentType('start', 'Date', other ?? null, argSpan(call, 0));
      return BigInt(self.epochDays - other.epochDays);
    }),
  };
  if (isTime) {
    const time = self as Time;
    table.toMicros = method(0, () => time.epochNanos / 1_000n);
    table.toMillis = method(0, () => time.epochNanos / 1_000_000n);
    table.toSeconds = method(0, () => time.epochNanos / 1_000_000_000n);
  }
  return table;
}
