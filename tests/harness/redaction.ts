// Secrets never reach a transcript, a report or an assertion message.

export const REDACTED = '<redacted>';

const SECRET_FIELDS = new Set(['secret', 'password']);
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/** Shorter strings would redact ordinary words; real secrets are long. */
const MIN_SECRET_LENGTH = 8;

const knownSecrets = new Set<string>();

/** Adds a secret (and its Basic-auth form) to the set every later redaction removes. */
export function registerSecret(secret: string | undefined): void {
  if (!secret || secret.length < MIN_SECRET_LENGTH) return;
  knownSecrets.add(secret);
  knownSecrets.add(Buffer.from(`${secret}:`).toString('base64'));
}

export function redactString(text: string, secrets: Iterable<string> = knownSecrets): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** A deep copy with `secret`/`password` fields and every known secret replaced (bigints, which JSON cannot hold, become strings). */
export function redactValue(value: unknown, secrets: Iterable<string> = knownSecrets): unknown {
  const list = [...secrets];
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactString(v, list);
    if (typeof v === 'bigint') return v.toString();
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) {
        out[k] = SECRET_FIELDS.has(k) && inner !== null && typeof inner !== 'object' ? REDACTED : walk(inner);
      }
      return out;
    }
    return v;
  };
  return walk(value);
}

export function redactHeaders(
  headers: { readonly [name: string]: string | undefined },
  secrets: Iterable<string> = knownSecrets,
): Record<string, string> {
  const list = [...secrets];
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? REDACTED : redactString(v, list);
  }
  return out;
}
