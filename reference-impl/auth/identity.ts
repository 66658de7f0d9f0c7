/** Who is acting in a request, as authentication established it. */
import type { DatabaseId } from '../store/store.js';
import type { Ref } from '../values/value.js';

export type KeyRole = 'admin' | 'server' | 'client';

export interface Identity {
  /** `root`: the server's root secret; `key`: a key secret; `token`: a token secret from Login. */
  readonly kind: 'root' | 'key' | 'token';
  /** The database the secret acts in. */
  readonly database: DatabaseId;
  /** Built-in role; `token` for token secrets, whose rights come from ABAC roles. */
  readonly role: KeyRole | 'token';
  /** Custom role refs (refs into `roles` only) of a key created with `role: Role(…)` or of a scoped secret (`secret:db:@role/name`). */
  readonly roleRefs?: readonly Ref[];
  /** The key record (kind `key`) or token record (kind `token`), relative to `recordDatabase`. */
  readonly record?: { readonly ref: Ref; readonly database: DatabaseId };
  /** For tokens: the document the token belongs to (the token's `instance`), relative to `database`. */
  readonly identityDocument?: Ref;
}

/** One user document, across databases, as a key (the token-issuing failpoints remember users by it). */
export function userKey(database: DatabaseId, user: Ref): string {
  return `${database}/${user.collection?.id}/${user.id}`;
}
