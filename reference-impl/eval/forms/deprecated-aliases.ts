/**
 * Deprecated names the real service still answers and the `faunadb` 4.x driver still sends (profile `v4-functions`,
 * DEC-065; spec/requirements/functions-format.md, "Deprecated aliases"): NextId for NewId and Classes for Collections.
 */
import { Ref } from '../../values/value.js';
import { expectRef } from '../arguments.js';
import type { FormDefinition } from '../form-registry.js';
import { whenReady } from '../when-ready.js';

const nextId: FormDefinition = {
  required: ['next_id'],
  evaluate(ctx) {
    return ctx.txn.newDocumentId();
  },
};

const COLLECTIONS = new Ref('collections');

/** `{"classes": null}` is `Ref(collections)`, as `{"collections": null}`; a database ref instead of null scopes it. */
const classes: FormDefinition = {
  required: ['classes'],
  evaluate(ctx, args) {
    return whenReady(args.valueOrPending(ctx, 'classes'), (scope) =>
      scope === null ? COLLECTIONS : new Ref('collections', undefined, expectRef(scope, args.position('classes'))),
    );
  },
};

export const deprecatedAliasForms: readonly FormDefinition[] = [nextId, classes];
