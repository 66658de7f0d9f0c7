// The failure signature of a failing test, as expectation files match it: the last HTTP status and error code the
// test saw (from its redacted exchanges) and the first line of its assertion message.
import type { Exchange } from '../harness/transcript.js';
import type { FailureSignature } from './reporters/report-model.js';

const MAX_ASSERTION = 200;

function errorCodeOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { errors?: unknown; error?: unknown };
  const first = Array.isArray(b.errors) ? (b.errors[0] as { code?: unknown } | undefined) : undefined;
  if (first && typeof first.code === 'string') return first.code;
  const v10 = b.error as { code?: unknown } | undefined;
  return v10 && typeof v10.code === 'string' ? v10.code : undefined;
}

export function failureSignature(error: string | undefined, exchanges: readonly Exchange[] | undefined): FailureSignature {
  const answered = [...(exchanges ?? [])].reverse().find((e) => e.response !== undefined);
  const assertion = error?.split('\n')[0]?.trim().slice(0, MAX_ASSERTION);
  const errorCode = errorCodeOf(answered?.response?.body);
  return {
    ...(answered?.response ? { status: answered.response.status } : {}),
    ...(errorCode === undefined ? {} : { errorCode }),
    ...(assertion ? { assertion } : {}),
  };
}
