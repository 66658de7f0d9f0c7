import { registerSecret } from './redaction.js';

/** Registers every string `secret` field found in a response, so later transcripts redact it wherever it appears. */
export function registerSecretsIn(value: unknown): void {
  if (Array.isArray(value)) {
    for (const v of value) registerSecretsIn(v);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'secret' && typeof v === 'string') registerSecret(v);
      else registerSecretsIn(v);
    }
  }
}
