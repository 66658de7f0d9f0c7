/** Ref-building forms: named schema refs, `ref`+`id`, and the native collection refs. */
import { documentId, hasNumericIds } from '../../codec/v4-refs.js';
import { errors } from '../../errors/query-error.js';
import { NATIVE_COLLECTIONS, Ref, type Value } from '../../values/value.js';
import { expectRef, expectString, typeName } from '../arguments.js';
import type { EvalContext } from '../context.js';
import type { FormArgs, FormDefinition } from '../form-registry.js';
import { whenReady } from '../when-ready.js';

/** `{"collection": "c"}` → `Ref(c, Ref(collections))`, optionally scoped to a child database. */
function named(key: string, nativeCollection: string): FormDefinition {
  // Shared by every ref this form builds (Refs are immutable), so its wire text is built once.
  const parent = new Ref(nativeCollection);
  const scoped = async (ctx: EvalContext, args: FormArgs): Promise<Value> => {
    const name = expectString(await args.value(ctx, key), args.position(key));
    const scope = expectRef(await args.value(ctx, 'scope'), args.position('scope'));
    return new Ref(name, parent, scope);
  };
  return {
    required: [key],
    optional: ['scope'],
    evaluate(ctx, args) {
      if (args.has('scope')) return scoped(ctx, args);
      return whenReady(args.valueOrPending(ctx, key), (given) => new Ref(expectString(given, args.position(key)), parent));
    },
  };
}

// Implements: PROTO-VALUE-003, DOC-CREATE-011, DOC-GET-003
/** `{"ref": <collection>, "id": <id>}`: a document's id is a 64-bit integer, given as a number or its text (DEC-132). */
const refWithId: FormDefinition = {
  required: ['ref', 'id'],
  evaluate(ctx, args) {
    return whenReady(args.valueOrPending(ctx, 'ref'), (given) => {
      const collection = expectRef(given, args.position('ref'));
      return whenReady(args.valueOrPending(ctx, 'id'), (id) => {
        if (typeof id !== 'string' && typeof id !== 'bigint') {
          throw errors.invalidArgument(`String or Integer expected, ${typeName(id)} provided.`, args.position('id'));
        }
        return new Ref(typeof id === 'string' && hasNumericIds(collection) ? documentId(id, args.position('id')) : String(id), collection);
      });
    });
  },
};

/** `{"collections": null}` → `Ref(collections)`; a database ref instead of null scopes it. `key` is another name for it. */
function native(name: string, key: string = name): FormDefinition {
  const unscoped = new Ref(name);
  return {
    required: [key],
    evaluate(ctx, args) {
      return whenReady(args.valueOrPending(ctx, key), (scope) =>
        scope === null ? unscoped : new Ref(name, undefined, expectRef(scope, args.position(key))),
      );
    },
  };
}

export const refForms: readonly FormDefinition[] = [
  named('collection', 'collections'),
  // Implements: PROTO-VERSION-005
  named('class', 'collections'),
  named('index', 'indexes'),
  named('database', 'databases'),
  named('role', 'roles'),
  // Implements: UDF-RECORD-001
  named('function', 'functions'),
  refWithId,
  ...NATIVE_COLLECTIONS.map((name) => native(name)),
  // Implements: FN-ALIAS-002
  // Classes, the deprecated name of Collections (FN-ALIAS-002).
  native('collections', 'classes'),
];
