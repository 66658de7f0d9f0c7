// Remembers the keys and tokens a run creates (from CreateKey and Login answers) so a fault can act with another
// credential's rights, or tell which credential a request uses.
import type { FaultHooks, ProxiedRequest } from '../../fault.js';
import { stringifyJson } from '../../json-body.js';
import { nativeCollectionOf, records } from './rewrites.js';

export interface KnownKey {
  secret: string;
  role: string;
  /** The key's database ref as canonical JSON text. */
  database: string;
  ref: string;
  /** The secret of the request that created the key (undefined when not known). */
  creator?: string;
}

export class KeyLedger {
  private readonly keys: KnownKey[] = [];

  /** Records every key record with a `secret` in an answer; `creator` is the secret the request was made with. */
  learnFrom(body: unknown, creator?: string): void {
    for (const record of records(body)) {
      if (nativeCollectionOf(record) !== 'keys' || typeof record.secret !== 'string' || typeof record.role !== 'string') continue;
      if (this.bySecret(record.secret) !== undefined) continue;
      this.keys.push({
        secret: record.secret,
        role: record.role,
        database: stringifyJson(record.database ?? null),
        ref: stringifyJson(record.ref),
        ...(creator === undefined ? {} : { creator }),
      });
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
    return this.keys.find(
      (key) => key.database === of.database && key.role === role && key.secret !== of.secret && !except.has(key.secret),
    );
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

export interface KnownToken {
  secret: string;
  /** The secret the Login (or token Create) was called with. */
  issuer: string | undefined;
}

export class TokenLedger {
  private readonly tokens: KnownToken[] = [];

  /** Records every token record with a `secret` in an answer; `issuer` is the secret the request was made with. */
  learnFrom(body: unknown, issuer: string | undefined): void {
    for (const record of records(body)) {
      if (nativeCollectionOf(record) !== 'tokens' || typeof record.secret !== 'string') continue;
      if (this.bySecret(record.secret) === undefined) this.tokens.push({ secret: record.secret, issuer });
    }
  }

  bySecret(secret: string | undefined): KnownToken | undefined {
    return secret === undefined ? undefined : this.tokens.find((token) => token.secret === secret);
  }

  /** The token the request authenticates with, if its secret is a known token. */
  ofRequest(request: ProxiedRequest): KnownToken | undefined {
    return this.bySecret(requestSecret(request));
  }
}

/** `build`'s hooks, with a ledger that learns the keys of every JSON answer before their own JSON hook sees it. */
export function learningKeys(build: (ledger: KeyLedger) => FaultHooks): FaultHooks {
  const ledger = new KeyLedger();
  const hooks = build(ledger);
  return {
    ...hooks,
    json: (body, context) => {
      ledger.learnFrom(body);
      return hooks.json?.(body, context);
    },
  };
}
