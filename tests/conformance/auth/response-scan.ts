// Watches every exchange of a test file (hooks included) so a final check can prove that no secret created in
// the file reappears after the answer that created it, and that no password the file sent ever comes back.
import { expect } from 'vitest';
import { check, observeExchanges, type Exchange } from '../../harness/index.js';

function bodyText(exchange: Exchange): string {
  const parts = [exchange.response?.body, ...(exchange.events ?? [])].filter((part) => part !== undefined);
  return parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('\n');
}

/** Values of every `key` field (strings only) anywhere in a parsed body. */
function fieldValues(value: unknown, key: string, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) fieldValues(item, key, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === key && typeof v === 'string') into.add(v);
      else fieldValues(v, key, into);
    }
  }
  return into;
}

const MIN_SCANNED_PASSWORD = 8;

export interface ResponseScan {
  /** Problems found so far: secrets answered more than once, passwords answered at all. */
  leaks(): string[];
  /** How many responses and distinct secrets and passwords were looked at (so a scan of nothing is visible). */
  coverage(): { responses: number; secrets: number; passwords: number };
}

/** Call at file load, before the tenant is created, so key secrets are covered too. */
export function scanFileResponses(): ResponseScan {
  const exchanges: Exchange[] = [];
  observeExchanges((exchange) => exchanges.push(exchange));
  const analyse = () => {
    const answered = exchanges.filter((e) => e.response !== undefined || e.events !== undefined);
    const texts = answered.map(bodyText);
    const secrets = new Set<string>();
    for (const e of answered) fieldValues(e.response?.body, 'secret', secrets);
    const passwords = new Set<string>();
    for (const e of exchanges) fieldValues(e.request.body, 'password', passwords);
    // Short strings (the empty password of a negative test) occur in ordinary bodies by chance.
    for (const password of passwords) if (password.length < MIN_SCANNED_PASSWORD) passwords.delete(password);
    return { answered, texts, secrets, passwords };
  };
  return {
    leaks() {
      const { answered, texts, secrets, passwords } = analyse();
      const problems: string[] = [];
      for (const secret of secrets) {
        const hits = answered.filter((_, i) => texts[i]!.includes(secret));
        if (hits.length > 1)
          problems.push(
            `a secret created in this file appears in ${hits.length} responses: ${hits.map((e) => `${e.method} ${e.path}`).join(', ')}`,
          );
      }
      for (const password of passwords) {
        const hits = answered.filter((_, i) => texts[i]!.includes(password));
        if (hits.length > 0)
          problems.push(
            `a password sent in this file appears in ${hits.length} responses: ${hits.map((e) => `${e.method} ${e.path}`).join(', ')}`,
          );
      }
      return problems;
    },
    coverage() {
      const { answered, secrets, passwords } = analyse();
      return { responses: answered.length, secrets: secrets.size, passwords: passwords.size };
    },
  };
}

/** The file's last test: no password it sent came back, no secret it created reappeared, and the scan saw some of each. */
export function checkNoLeaks(scan: ResponseScan): void {
  check(
    ['AUTH-TOKEN-002', 'DOC-CRED-002', 'AUTH-PASSWORD-004', 'KEY-SECRET-005'],
    'no response of this file contains a password it sent, nor a secret outside the answer that created it',
    () => {
      const coverage = scan.coverage();
      expect(coverage.secrets).toBeGreaterThan(3);
      expect(coverage.passwords).toBeGreaterThan(0);
      expect(scan.leaks()).toEqual([]);
    },
  );
}
