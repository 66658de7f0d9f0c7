/**
 * Secret → Identity. Accepts the root secret, key secrets, token secrets, and scoped secrets
 * `<admin or root secret>:<database path>:<role>` that act inside a descendant database.
 */
import { timingSafeEqual } from 'node:crypto';
import { isRoleRef } from './role-record.js';
import { userKey, type Identity, type KeyRole } from './identity.js';
import { failpoint, failpointMemory, failpointWhere } from '../failpoints.js';
import { ROOT_DATABASE, userCollectionKey, type DatabaseId, type Store } from '../store/store.js';
import { Transaction } from '../txn/transaction.js';
import { Ref, Time, type Value } from '../values/value.js';
import { addressOf, digestsEqual, sha256Digest, type SecretAddress } from './secrets.js';

/** Digests remembered per presented secret: clients send the same few secrets on every request. */
const MAX_REMEMBERED_DIGESTS = 1024;

export class Authenticator {
  private readonly rootDigest: Buffer;
  private readonly digests = new Map<string, Buffer>();

  constructor(
    private readonly store: Store,
    rootSecret: string,
    /** The time a request is judged at (microseconds): the snapshot time its transaction will read at. */
    private readonly requestTs: () => bigint,
  ) {
    this.rootDigest = sha256Digest(rootSecret);
  }

  /** SHA-256 of a presented secret; hashing on every request cost more than the rest of authentication. */
  private digestOf(secret: string): Buffer {
    let digest = this.digests.get(secret);
    if (digest === undefined) {
      if (this.digests.size >= MAX_REMEMBERED_DIGESTS) this.digests.clear();
      digest = sha256Digest(secret);
      this.digests.set(secret, digest);
    }
    return digest;
  }

  /** The identity of a secret, or undefined when it is unknown, revoked, or its database is gone. */
  authenticate(secret: string): Identity | undefined {
    // Most requests present an unscoped secret: nothing to split, and the root secret reads nothing.
    if (!secret.includes(':')) return this.baseIdentity(secret, undefined);
    const view = this.view();
    const [base, dbPath, role, ...extra] = secret.split(':');
    if (base === undefined || extra.length > 0) return undefined;
    const identity = this.baseIdentity(base, view);
    if (!identity || dbPath === undefined) return identity;
    if (identity.role !== 'admin') return undefined;
    return scoped(view, identity, dbPath, role ?? 'admin');
  }

  /** A read-only view of the store as of its latest commit. */
  private view(): Transaction {
    return new Transaction(this.store, this.store.lastCommitTs, true);
  }

  // Implements: KEY-ROLE-008
  private baseIdentity(secret: string, view: Transaction | undefined): Identity | undefined {
    const digest = this.digestOf(secret);
    if (timingSafeEqual(digest, this.rootDigest)) return { kind: 'root', database: ROOT_DATABASE, role: 'admin' };
    const address = addressOf(secret);
    return address ? this.recordIdentity(view ?? this.view(), address, digest.toString('hex')) : undefined;
  }

  /**
   * The identity a key or token record grants now, without its secret: how event sources re-check, at each use,
   * the secret that created them. Undefined when the record is gone, expired, or its database is deleted.
   */
  identityOfRecord(address: SecretAddress): Identity | undefined {
    return this.recordIdentity(this.view(), address, undefined);
  }

  // Implements: DB-CHILD-001, DB-LIFE-002, DB-LIFE-003, DB-LIFE-004, KEY-LIFE-001, KEY-LIFE-002, KEY-LIFE-004
  // Implements: KEY-SECRET-001, AUTH-CHANGE-001, AUTH-CHANGE-002, AUTH-KEY-001, AUTH-LOGIN-012, AUTH-LOGOUT-002
  // Implements: AUTH-LOGOUT-004, AUTH-TOKEN-004, AUTH-TOKEN-005, AUTH-TOKEN-006, AUTH-TOKEN-007
  private recordIdentity(view: Transaction, address: SecretAddress, digest: string | undefined): Identity | undefined {
    if (!view.isDatabaseLive(address.database)) return undefined;
    const collection = address.kind === 'key' ? 'keys' : 'tokens';
    // Read without the view's expiry rule, which judges at the last commit: the ttl is judged below, at the request's time.
    const found = this.store.versionAt(address.database, collection, address.id, view.ts);
    // Failpoint KEY-DELETED-STILL-WORKS: a server that still reads a deleted key as it was just before its deletion.
    const record =
      found?.action !== 'delete'
        ? found
        : address.kind === 'key' && failpoint('KEY-DELETED-STILL-WORKS')
          ? this.store.getDocument(address.database, collection, address.id, found.ts - 1n)
          : undefined;
    if (!record || record.hidden.secretDigest === undefined) return undefined;
    if (digest !== undefined && !digestsEqual(digest, record.hidden.secretDigest)) return undefined;
    // A key or token ends once its `ttl` is at or before the request's time (DEC-010).
    const ttl = record.fields.ttl;
    if (ttl instanceof Time && ttl.micros <= this.requestTs() && (address.kind === 'token' || !failpoint('KEY-TTL-IGNORED')))
      return undefined;
    const recordInfo = { ref: new Ref(address.id, new Ref(collection)), database: address.database };
    if (address.kind === 'token') {
      // A token also ends with its identity document (DEC-010).
      const instance = record.fields.instance;
      const live = tokenIdentityLive(view, address.database, instance);
      if (!live && !(instance instanceof Ref && failpoint('AUTH-DELETED-USER-TOKENS-VALID'))) return undefined;
      const loggedOut = () =>
        instance instanceof Ref && failpointMemory('AUTH-LOGOUT-BLOCKS-USER').has(userKey(address.database, instance));
      if (failpointWhere('AUTH-LOGOUT-BLOCKS-USER', loggedOut)) return undefined;
      return { kind: 'token', database: address.database, role: 'token', record: recordInfo, identityDocument: instance };
    }
    let database: DatabaseId = address.database;
    const target = record.fields.database;
    if (target instanceof Ref) {
      const child = view.get(address.database, 'databases', target.id)?.hidden.databaseId;
      if (child === undefined) return undefined;
      database = child;
    }
    const role = record.fields.role;
    if (typeof role === 'string') return { kind: 'key', database, role: failpointRole(role), record: recordInfo };
    // Implements: KEY-ROLE-009
    // Only refs into `roles` name roles; any other ref a stored key holds (one written before role refs were validated)
    // grants nothing. Filtered here rather than where roles are looked up: event sources keep a creator's refs by id alone.
    const roleRefs = (Array.isArray(role) ? role : [role]).filter(isRoleRef);
    return { kind: 'key', database, role: 'client', roleRefs, record: recordInfo };
  }
}

/** A key's role as the self-check's failpoints grant it: a client key or a `server-readonly` one acting as a server key. */
function failpointRole(role: string): KeyRole {
  if (role === 'client') return failpoint('KEY-CLIENT-ACTS-AS-SERVER') ? 'server' : role;
  return role === 'server-readonly' && failpoint('KEY-ROLE-READONLY-AS-SERVER') ? 'server' : (role as KeyRole);
}

/** Whether a token's `instance`, in the token's database, names a user document that `view` sees (DEC-010). */
export function tokenIdentityLive(view: Transaction, database: DatabaseId, instance: Value | undefined): instance is Ref {
  if (!(instance instanceof Ref)) return false;
  const collection = instance.collection;
  if (collection === undefined || collection.collection?.id !== 'collections') return false;
  return view.get(database, userCollectionKey(collection.id), instance.id) !== undefined;
}

function scoped(view: Transaction, identity: Identity, dbPath: string, role: string): Identity | undefined {
  let database = identity.database;
  for (const name of dbPath.split('/')) {
    if (name === '') return undefined;
    const child = view.get(database, 'databases', name)?.hidden.databaseId;
    if (child === undefined) return undefined;
    database = child;
  }
  if (role === 'admin' || role === 'server' || role === 'client') return { ...identity, kind: identity.kind, database, role };
  if (role.startsWith('@role/') && role.length > '@role/'.length) {
    return { ...identity, database, role: 'client', roleRefs: [new Ref(role.slice('@role/'.length), new Ref('roles'))] };
  }
  return undefined;
}
