// Helpers of the fql10 conformance tests (spec/requirements/fql10.md): queries on /query/1 evaluated without
// typechecking (`x-typecheck: false`, as the core's own tests send it where they assert run-time behaviour, DEC-150),
// answers read in the tagged format unless a test asks for another.
import { expect } from 'vitest';
import type { Client, Response } from '../../../harness/index.js';

export const UNTYPED = { 'x-typecheck': 'false' } as const;

/** The client's options for a format: `decorated` is sent as a header, the harness knowing only the other two. */
function formatOptions(format: 'tagged' | 'simple' | 'decorated' = 'tagged', headers: Record<string, string> = {}) {
  if (format === 'decorated') return { format: null, headers: { ...UNTYPED, 'x-format': 'decorated', ...headers } };
  return { format, headers: { ...UNTYPED, ...headers } };
}

/** Runs `query`; answers the whole 200 response. */
export async function ok(
  client: Client,
  query: string | { fql: unknown[] },
  opts: { format?: 'tagged' | 'simple' | 'decorated'; args?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<Response> {
  const res = await client.fql(query, opts.args, formatOptions(opts.format, opts.headers));
  return res.expectStatus(200).expectSchema('v10-query-response');
}

/** The tagged `data` of a query that must succeed. */
// biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
export async function data(client: Client, query: string | { fql: unknown[] }, args?: Record<string, unknown>): Promise<any> {
  return (await ok(client, query, args === undefined ? {} : { args })).body.data;
}

/** Runs `query`, which must fail with 400 and one of `codes`; answers the error body. */
export async function fails(
  client: Client,
  query: string | { fql: unknown[] },
  codes: string | readonly string[],
  opts: { format?: 'tagged' | 'simple' | 'decorated'; headers?: Record<string, string> } = {},
  // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
): Promise<any> {
  const res = await client.fql(query, undefined, formatOptions(opts.format, opts.headers));
  res.expectStatus(400).expectSchema('v10-error');
  res.expectErrorCode(...(typeof codes === 'string' ? [codes] : codes));
  return res.body;
}

/** The `line:column` a summary names (`at *query*:L:C`), or undefined. */
export function summaryPosition(summary: unknown): string | undefined {
  const m = typeof summary === 'string' ? /at \*query\*:(\d+):(\d+)/.exec(summary) : null;
  return m === null ? undefined : `${m[1]}:${m[2]}`;
}

/** Tagged integers and doubles of a result, as numbers, for comparisons of arithmetic. */
export function numberOf(tagged: unknown): number {
  if (tagged !== null && typeof tagged === 'object') {
    const [tag, text] = Object.entries(tagged as Record<string, string>)[0] ?? [];
    if (tag === '@int' || tag === '@long' || tag === '@double') return Number(text);
  }
  throw new Error(`not a tagged number: ${JSON.stringify(tagged)}`);
}

export function expectTag(tagged: unknown, tag: string): string {
  expect(tagged, `expected ${tag}`).toEqual({ [tag]: expect.any(String) });
  return (tagged as Record<string, string>)[tag] as string;
}
