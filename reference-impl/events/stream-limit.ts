/**
 * Open streams per secret (issue 8 "Limits", DEC-043): a secret may hold at most `limit` open `/stream/1`
 * responses at once; one more is refused before it opens (429 `limit_exceeded`). A secret is the credential
 * behind the request — the root secret, one key or one token — so its scoped forms (`secret:db:role`) share
 * its count. A stream's place is given back when it ends, whoever ends it.
 */
import type { Identity } from '../auth/identity.js';

/** Large enough for the write→event benchmark's 1,000 streams on one secret, with room for leftovers. */
export const DEFAULT_MAX_STREAMS_PER_SECRET = 4096;

// Implements: LIMIT-STREAMS-001, LIMIT-STREAMS-002
export class StreamLimit {
  private readonly open = new Map<string, number>();

  constructor(readonly limit: number = DEFAULT_MAX_STREAMS_PER_SECRET) {}

  /** Takes a place for a new stream of `identity`'s secret: the function that gives it back, or undefined when full. */
  acquire(identity: Identity): (() => void) | undefined {
    const secret = secretOf(identity);
    const count = this.open.get(secret) ?? 0;
    if (count >= this.limit) return undefined;
    this.open.set(secret, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(secret) ?? 1) - 1;
      if (left === 0) this.open.delete(secret);
      else this.open.set(secret, left);
    };
  }

  /** Streams `identity`'s secret holds open now. */
  openFor(identity: Identity): number {
    return this.open.get(secretOf(identity)) ?? 0;
  }
}

function secretOf(identity: Identity): string {
  if (identity.kind === 'root' || identity.record === undefined) return identity.kind;
  return `${identity.kind}\u0000${identity.record.database}\u0000${identity.record.ref.id}`;
}

export function tooManyStreamsMessage(limit: number): string {
  return `Too many open streams for this secret: at most ${limit} may be open at once. Close a stream and try again.`;
}
