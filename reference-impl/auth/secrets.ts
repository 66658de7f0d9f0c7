/**
 * Key and token secrets. A secret names the record it belongs to, so authentication finds the record
 * directly and then compares SHA-256 digests in constant time; only the digest and a BCrypt hash (the
 * rendered `hashed_secret`) are stored, never the secret.
 *
 * Format: `fn<K|T>_<database id>_<record id>_<32 hex random>`.
 */
import { compare as bcryptCompare, hash as bcryptHash } from '@node-rs/bcrypt';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DatabaseId } from '../store/store.js';

/** BCrypt cost used when the server is started without one: low, so test runs stay fast. */
export const DEFAULT_BCRYPT_COST = 4;

export interface SecretAddress {
  kind: 'key' | 'token';
  database: DatabaseId;
  id: string;
}

const SECRET_PATTERN = /^fn([KT])_(\d+)_(\d+)_[0-9a-f]{32}$/;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function sha256Digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ba.length === bb.length && ba.length > 0 && timingSafeEqual(ba, bb);
}

// Implements: KEY-SECRET-004, KEY-SECRET-006, AUTH-TOKEN-003
/** A freshly issued key or token secret: the secret itself is shown once, the rest is stored. */
export interface IssuedSecret {
  secret: string;
  /** SHA-256 (hex), kept hidden, compared at authentication. */
  digest: string;
  /** BCrypt hash, rendered as `hashed_secret`. */
  hashedSecret: string;
}

export async function issueSecret(kind: 'key' | 'token', database: DatabaseId, id: string, bcryptCost: number): Promise<IssuedSecret> {
  const secret = `fn${kind === 'key' ? 'K' : 'T'}_${database}_${id}_${randomBytes(16).toString('hex')}`;
  return { secret, digest: sha256Hex(secret), hashedSecret: await bcryptHash(secret, bcryptCost) };
}

/** Where the record of a secret lives, or undefined when the text is not one of our secrets. */
export function addressOf(secret: string): SecretAddress | undefined {
  const m = SECRET_PATTERN.exec(secret);
  if (!m) return undefined;
  return { kind: m[1] === 'K' ? 'key' : 'token', database: m[2]!, id: m[3]! };
}

/**
 * True when `secret` is the current secret of the record at `address`, whose stored SHA-256 digest is `digest`: its
 * address names that record and its digest matches, compared in constant time.
 */
export function isSecretOf(secret: string, address: SecretAddress, digest: string | undefined): boolean {
  const named = addressOf(secret);
  if (!named || digest === undefined) return false;
  if (named.kind !== address.kind || named.database !== address.database || named.id !== address.id) return false;
  return digestsEqual(sha256Hex(secret), digest);
}

// Implements: AUTH-PASSWORD-004
export function hashPassword(password: string, bcryptCost: number): Promise<string> {
  return bcryptHash(password, bcryptCost);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcryptCompare(password, hash);
}
