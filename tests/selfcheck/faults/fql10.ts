// The faults of FQL v10 on /query/1 (spec/requirements/fql10.md) that are code: answers rebuilt from values a row
// cannot name (a wrapped sum, untagged values, moved fields) and query numbers bumped by one; the rest are rows.
import type { FaultHooks } from '../fault.js';
import { isJsonObject, stringifyJson, tryParseJson, type JsonObject } from '../json-body.js';
import { editFql, fqlText } from './lib/event-rewrites.js';
import { pathname, withJsonBody } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

interface Answer {
  status: number;
  body: unknown;
}

/** Answers `/query/1` requests with what `make` makes of the query's text, the status and the parsed answer (undefined: as it was). */
function reanswer(make: (text: string, status: number, body: JsonObject) => Answer | undefined): FaultHooks {
  return {
    response: (response, context) => {
      const text = fqlText(context.original);
      const parsed = tryParseJson(response.body);
      const answer = text !== undefined && parsed.ok && isJsonObject(parsed.value) ? make(text, response.status, parsed.value) : undefined;
      return answer === undefined ? undefined : withJsonBody({ ...response, status: answer.status }, answer.body);
    },
  };
}

/** A 200 answer with `data`, in the shape of the server's own answers. */
const success = (body: JsonObject, data: unknown): Answer => ({
  status: 200,
  body: { data, summary: '', txn_ts: body.txn_ts ?? 0, stats: body.stats, schema_version: body.schema_version ?? 0 },
});

/** `value` with every tagged value `{tag: text}` in it replaced by its bare text; undefined when it holds none. */
function untagged(value: unknown, tag: string): unknown {
  let changed = 0;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isJsonObject(node)) return node;
    const keys = Object.keys(node);
    if (keys.length === 1 && keys[0] === tag && typeof node[tag] === 'string') {
      changed++;
      return node[tag];
    }
    return Object.fromEntries(keys.map((key) => [key, walk(node[key])]));
  };
  const out = walk(value);
  return changed === 0 ? undefined : out;
}

const successWith = (data: (body: JsonObject, text: string) => unknown) =>
  reanswer((text, status, body) => {
    const value = status === 200 ? data(body, text) : undefined;
    return value === undefined ? undefined : success(body, value);
  });

export const code: FaultCode = {
  'FQL-SYNTAX-POSITION-IN-MESSAGE': () =>
    reanswer((_text, status, body) => {
      if (status !== 400 || !isJsonObject(body.error) || body.error.code !== 'invalid_query' || typeof body.summary !== 'string')
        return undefined;
      const at = /at \*query\*:(\d+:\d+)/.exec(body.summary);
      const detail = body.summary.split('\n')[0]?.replace(/^error: /, '') ?? '';
      return { status: 400, body: { ...body, error: { code: 'invalid_query', message: `${at?.[1] ?? '1:1'}: ${detail}` }, summary: '' } };
    }),
  'FQL-LONG-OVERFLOW-WRAPS': () =>
    successWith((_body, text) => {
      const m = /^(\d{19}) \+ (\d{19})$/.exec(text.trim());
      return m === null ? undefined : { '@long': BigInt.asIntN(64, BigInt(m[1]!) + BigInt(m[2]!)).toString() };
    }),
  'FQL-PROJECTION-DROPS-MISSING': () =>
    successWith((body, text) => {
      if (!/\w \{ \w/.test(text)) return undefined;
      let dropped = 0;
      const walk = (node: unknown): unknown => {
        if (Array.isArray(node)) return node.map(walk);
        if (!isJsonObject(node)) return node;
        const kept = Object.entries(node).filter(([, value]) => value !== null);
        dropped += Object.keys(node).length - kept.length;
        return Object.fromEntries(kept.map(([key, value]) => [key, walk(value)]));
      };
      const data = walk(body.data);
      return dropped === 0 ? undefined : data;
    }),
  'FQL-RUNTIME-SUMMARY-WITHOUT-POSITION': () =>
    reanswer((_text, status, body) => {
      const runtime = status === 400 && isJsonObject(body.error) && body.error.code !== 'invalid_query';
      if (!runtime || typeof body.summary !== 'string' || !body.summary.includes('\n')) return undefined;
      return { status, body: { ...body, summary: body.summary.split('\n')[0] } };
    }),
  'FQL-DATE-UNTAGGED': () => successWith((body) => untagged(body.data, '@date')),
  'FQL-DOCUMENT-FIELDS-IN-DATA': () =>
    successWith((body, text) => {
      if (!text.includes('.create(') || !isJsonObject(body.data) || !isJsonObject(body.data['@doc'])) return undefined;
      const { id, coll, ts, ...fields } = body.data['@doc'];
      return Object.keys(fields).length === 0 ? undefined : { '@doc': { id, coll, ts, data: fields } };
    }),
  'FQL-TAKE-OFF-BY-ONE': () => ({
    request: editFql((text) => text.replace(/\.take\((\d+)\)/g, (_m, n: string) => `.take(${Number(n) + 1})`)),
  }),
  'FQL-SET-WITHOUT-CURSOR': () =>
    successWith((body) => {
      if (!isJsonObject(body.data) || !isJsonObject(body.data['@set']) || !('after' in body.data['@set'])) return undefined;
      const { after: _after, ...page } = body.data['@set'];
      return { '@set': page };
    }),
  'FQL-SEQUENCE-INCLUSIVE': () => ({
    request: editFql((text) =>
      text.replace(/Set\.sequence\((-?\d+), (-?\d+)\)/g, (_m, a: string, b: string) => `Set.sequence(${a}, ${Number(b) + 1})`),
    ),
  }),
  'FQL-EVENT-TIMES-UNTAGGED': () => ({
    response: (response, context) => {
      const parsed = pathname(context.original) === '/feed/1' && response.status === 200 ? tryParseJson(response.body) : undefined;
      const page = parsed?.ok === true && isJsonObject(parsed.value) ? parsed.value : undefined;
      const events = page === undefined ? undefined : untagged(page.events, '@time');
      return events === undefined ? undefined : { ...response, body: Buffer.from(stringifyJson({ ...page, events })) };
    },
  }),
};
