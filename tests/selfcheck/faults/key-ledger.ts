// Remembers the keys a run creates (from CreateKey answers) so a fault can act with another key's rights.
import type { ProxiedRequest } from '../fault.js';
import { isJsonObject, stringifyJson, type JsonObject } from '../json-body.js';
import { nativeCollectionOf, records } from './rewrites.js';

export interface KnownKey {
  secret: string;
  role: string;
  /** The key's database ref as canonical JSON text. */
  database: string;
  ref: string;
}

export class KeyLedger {
  private readonly keys: KnownKey[] = [];

  /** Records every key record with a `secret` in an answer. */
  learnFrom(body: unknown): void {
    for (const record of records(body)) {
      if (nativeCollectionOf(record) !== 'keys' || typeof record.secret !== 'string' || typeof record.role !== 'string') continue;
      this.keys.push({ secret: record.secret, role: record.role, database: stringifyJson(record.database ?? null), ref: stringifyJson(record.ref) });
    }
  }

  bySecret(secret: string): KnownKey | undefined {
    return this.keys.find((key) => key.secret === secret);
  }

  byRef(ref: unknown): KnownKey | undefined {
    const text = stringifyJson(ref);
    return this.keys.find((key) => key.ref === text);
  }

  /** Another key of the same database with the given role, other than `except`. */
  sibling(of: KnownKey, role: string, except: ReadonlySet<string> = new Set()): KnownKey | undefined {
    return this.keys.find((key) => key.database === of.database && key.role === role && key.secret !== of.secret && !except.has(key.secret));
  }
}

/** The secret a request authenticates with (Bearer or Basic), if any. */
export function requestSecret(request: ProxiedRequest): string | undefined {
  const auth = request.headers.authorization ?? '';
  if (auth.startsWith('Bearer ')) return auth.slice(7);
  if (auth.startsWith('Basic ')) return Buffer.from(auth.slice(6), 'base64').toString('utf8').replace(/:$/, '');
  return undefined;
}

export function withSecret(request: ProxiedRequest, secret: string): ProxiedRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${secret}` } };
}

export function isKeyRecord(value: unknown): value is JsonObject {
  return isJsonObject(value) && nativeCollectionOf(value) === 'keys';
}
