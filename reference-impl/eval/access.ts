/**
 * The access-control seam. The evaluator asks the policy before every read and write; the policy decides
 * from the identity (key role, or a token's ABAC roles). Role predicates are lambdas, so the policy gets
 * the evaluation context to apply them with.
 */
import { membershipEntries } from '../auth/role-record.js';
import type { CollectionKey, DatabaseId, DocumentVersion } from '../store/store.js';
import { Ref, type ObjectValue, type Value } from '../values/value.js';
import type { EvalContext } from './context.js';

/**
 * `unrestricted_read` is asked of indexes only: reading every entry, whoever may read the entries' documents. `call`
 * is asked of user functions only (Call).
 */
export type AccessAction =
  | 'read'
  | 'create'
  | 'create_with_id'
  | 'write'
  | 'delete'
  | 'history_read'
  | 'history_write'
  | 'unrestricted_read'
  | 'call';

export interface AccessRequest {
  readonly action: AccessAction;
  readonly database: DatabaseId;
  readonly collection: CollectionKey;
  /** The document's ref (absent when creating without an id). */
  readonly ref?: Ref;
  /** Current version (read, write, delete). */
  readonly before?: DocumentVersion;
  /** The fields being written (create, write). */
  readonly after?: ObjectValue;
  /** For a read of an index's entries: the terms of the Match (an index predicate receives them). */
  readonly terms?: readonly Value[];
  /** For a call of a user function: the arguments of the Call (a `call` predicate receives them). */
  readonly arguments?: Value;
  /** For a history edit (Insert, Remove): its time, action and fields (a `history_write` predicate receives them). */
  readonly historyEdit?: { readonly ts: bigint; readonly action: string; readonly fields: ObjectValue };
}

export interface AccessPolicy {
  /**
   * True when the identity may perform the action; the evaluator turns false into `permission denied`. Decisions
   * that need no evaluation (key roles) come back synchronously: a listing checks every document it walks, and a
   * promise per check was most of the cost of a page.
   */
  allows(ctx: EvalContext, request: AccessRequest): boolean | Promise<boolean>;
  /**
   * True when the identity may read every document of the collection, whatever the document holds: a listing
   * then asks `allows` for none of them. False whenever the answer could depend on a document.
   */
  readsEveryDocument(ctx: EvalContext, database: DatabaseId, collection: CollectionKey): boolean;
  /**
   * True when the identity may read some documents of the collection: it reads every one, or one of its roles has a
   * `read` privilege on the collection, a predicate included. Asked before an event source is created or consumed, as
   * the real service does (fauna/faunadb `Auth.checkReadCollectionPermission`).
   */
  hasReadPrivilege(ctx: EvalContext, database: DatabaseId, collection: CollectionKey): boolean | Promise<boolean>;
}

/** Whether a role's membership names the collection of the calling token's identity document (true for any other caller). */
export function namedInSomeRole(ctx: EvalContext): boolean {
  const collection = ctx.identity.kind === 'token' ? ctx.identity.identityDocument?.collection : undefined;
  if (collection === undefined) return true;
  for (const [, version] of ctx.txn.scan(ctx.identity.database, 'roles'))
    if (membershipEntries(version.fields).some((m) => m.resource instanceof Ref && m.resource.equals(collection))) return true;
  return false;
}
