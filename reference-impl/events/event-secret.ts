/**
 * The identity behind a secret used with an event source: the one that consumes it (a `/feed/1` or `/stream/1`
 * request), whose rights filter the events and whose revocation ends a stream (DEC-036, as the real service), and
 * the one that created it, which the token records (database, built-in role, custom role refs, the key or token
 * record, a token's identity document; never a secret). An open stream re-reads the record to see whether the
 * secret still authenticates and grants the same rights.
 */
import type { Identity, KeyRole } from '../auth/identity.js';
import type { SecretAddress } from '../auth/secrets.js';
import type { DatabaseId, Store } from '../store/store.js';
import { Transaction } from '../txn/transaction.js';
import { Ref } from '../values/value.js';

/** What the revocation check needs from the authenticator. */
export interface RecordAuthenticator {
  identityOfRecord(address: SecretAddress): Identity | undefined;
}

export interface EventSecret {
  readonly identity: Identity;
  /** A scoped secret (`secret:db:role`): its rights come from the scope, its validity from the base secret. */
  readonly scoped: boolean;
}

interface EventSecretJson {
  k: Identity['kind'];
  db: DatabaseId;
  r: KeyRole | 'token';
  rr?: string[];
  rec?: { db: DatabaseId; id: string };
  doc?: { c: string; id: string };
  s: boolean;
}

function sameRefs(a: readonly Ref[] | undefined, b: readonly Ref[] | undefined): boolean {
  const left = a ?? [];
  const right = b ?? [];
  return left.length === right.length && left.every((ref, i) => ref.equals(right[i] as Ref));
}

/** Same database, built-in role, custom roles and identity document: the same rights. */
export function sameRights(a: Identity, b: Identity): boolean {
  const docs =
    a.identityDocument === undefined || b.identityDocument === undefined
      ? a.identityDocument === b.identityDocument
      : a.identityDocument.equals(b.identityDocument);
  return a.kind === b.kind && a.database === b.database && a.role === b.role && sameRefs(a.roleRefs, b.roleRefs) && docs;
}

function baseOf(identity: Identity, authenticator: RecordAuthenticator): Identity | undefined {
  if (identity.kind === 'root') return { kind: 'root', database: identity.database, role: 'admin' };
  const record = identity.record;
  if (record === undefined) return undefined;
  return authenticator.identityOfRecord({ kind: identity.kind, database: record.database, id: record.ref.id });
}

export function eventSecretOf(identity: Identity, authenticator: RecordAuthenticator): EventSecret {
  const base = baseOf(identity, authenticator);
  return { identity, scoped: base === undefined || !sameRights(base, identity) };
}

/**
 * The secret's identity as of now, or undefined when it no longer authenticates (deleted key, logged-out
 * or expired token, deleted database) or grants different rights (another role, other custom roles).
 */
export function currentIdentity(secret: EventSecret, authenticator: RecordAuthenticator, store: Store): Identity | undefined {
  const { identity } = secret;
  if (!new Transaction(store, store.lastCommitTs, true).isDatabaseLive(identity.database)) return undefined;
  const base = baseOf(identity, authenticator);
  if (base === undefined) return undefined;
  if (secret.scoped) return base.role === 'admin' ? identity : undefined;
  return sameRights(base, identity) ? identity : undefined;
}

export function encodeEventSecret(secret: EventSecret): string {
  const { identity } = secret;
  const json: EventSecretJson = { k: identity.kind, db: identity.database, r: identity.role, s: secret.scoped };
  if (identity.roleRefs !== undefined) json.rr = identity.roleRefs.map((ref) => ref.id);
  if (identity.record !== undefined) json.rec = { db: identity.record.database, id: identity.record.ref.id };
  const doc = identity.identityDocument;
  if (doc?.collection !== undefined) json.doc = { c: doc.collection.id, id: doc.id };
  return JSON.stringify(json);
}

/** Undefined for text that is not an encoded secret identity (the token is then invalid). */
export function decodeEventSecret(text: string): EventSecret | undefined {
  let json: EventSecretJson;
  try {
    json = JSON.parse(text) as EventSecretJson;
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || typeof json.db !== 'string' || typeof json.s !== 'boolean') return undefined;
  if (!['root', 'key', 'token'].includes(json.k) || !['admin', 'server', 'client', 'token'].includes(json.r)) return undefined;
  const recordCollection = json.k === 'token' ? 'tokens' : 'keys';
  const identity: Identity = {
    kind: json.k,
    database: json.db,
    role: json.r,
    ...(json.rr ? { roleRefs: json.rr.map((id) => new Ref(String(id), new Ref('roles'))) } : {}),
    ...(json.rec ? { record: { ref: new Ref(String(json.rec.id), new Ref(recordCollection)), database: String(json.rec.db) } } : {}),
    ...(json.doc ? { identityDocument: new Ref(String(json.doc.id), new Ref(String(json.doc.c), new Ref('collections'))) } : {}),
  };
  return { identity, scoped: json.s };
}
