// Which schema a response must match, decided by endpoint and status, so every response is checked even when a
// test forgets to ask.
import { validate } from '../../schemas/index.js';
import { redactString } from './redaction.js';

export function responseSchemaFor(path: string, status: number): string {
  const route = path.split('?')[0]!;
  const ok = status >= 200 && status < 300;
  switch (route) {
    case '/query/1':
      return ok ? 'v10-query-response' : 'v10-error';
    case '/feed/1':
      return ok ? 'feed-response' : 'v10-error';
    case '/stream/1':
      return 'v10-error';
    case '/tokens/self':
      return ok ? 'token-self' : 'v4-error';
    default:
      return ok ? 'v4-success' : 'v4-error';
  }
}

export const STREAM_EVENT_SCHEMA = 'event';
export const V4_STREAM_EVENT_SCHEMA = 'v4-stream-event';

export class SchemaMismatchError extends Error {
  override name = 'SchemaMismatchError';
}

/** Throws with the request line, the schema's complaints and the (redacted) body when `value` does not match. */
export function assertMatchesSchema(schema: string, value: unknown, where: string, text: string): void {
  const result = validate(schema, value);
  if (result.valid) return;
  const shown = text.length > 4000 ? `${text.slice(0, 4000)}… (${text.length} characters)` : text;
  throw new SchemaMismatchError(
    `${where} does not match schema ${schema}:\n  - ${result.errors.join('\n  - ')}\nbody: ${redactString(shown)}`,
  );
}
