/** Ref-building forms: named schema refs, `ref`+`id`, and the native collection refs. */
import { errors } from '../../errors/query-error.js';
import { NATIVE_COLLECTIONS, Ref } from '../../values/value.js';
import { expectRef, expectString, typeName } from '../arguments.js';
import type { FormDefinition } from '../form-registry.js';

/** `{"collection": "c"}` → `Ref(c, Ref(collections))`, optionally scoped to a child database. */
function named(key: string, nativeCollection: string): FormDefinition {
  return {
    required: [key],
    optional: ['scope'],
    async evaluate(ctx, args) {
      const given = args.valueOrPending(ctx, key);
      const name = expectString(given instanceof Promise ? await given : given, args.position(key));
      const scope = args.has('scope') ? expectRef(await args.value(ctx, 'scope'), args.position('scope')) : undefined;
      return new Ref(name, new Ref(nativeCollection), scope);
    },
  };
}

const refWithId: FormDefinition = {
  required: ['ref', 'id'],
  async evaluate(ctx, args) {
    const collection = expectRef(await args.value(ctx, 'ref'), args.position('ref'));
    const given = args.valueOrPending(ctx, 'id');
    const id = given instanceof Promise ? await given : given;
    if (typeof id !== 'string' && typeof id !== 'bigint') {
      throw errors.invalidArgument(`String or Integer expected, ${typeName(id)} provided.`, args.position('id'));
    }
    return new Ref(String(id), collection);
  },
};

/** `{"collections": null}` → `Ref(collections)`; a database ref instead of null scopes it. */
function native(name: string): FormDefinition {
  return {
    required: [name],
    async evaluate(ctx, args) {
      const scope = await args.value(ctx, name);
      if (scope === null) return new Ref(name);
      return new Ref(name, undefined, expectRef(scope, args.position(name)));
    },
  };
}

export const refForms: readonly FormDefinition[] = [
  named('collection', 'collections'),
  named('class', 'collections'),
  named('index', 'indexes'),
  named('database', 'databases'),
  named('role', 'roles'),
  named('function', 'functions'),
  refWithId,
  ...NATIVE_COLLECTIONS.map(native),
];
