// The failure signature of a failing test, as expectation files and `diff` match it. It must identify the failure,
// not the run: the same bug gives the same signature across runs and seeds, a different bug a different one. So it
// holds what the test saw and how its assertion failed, never the data compared:
// - status and errorCode: the last HTTP status and error code the test saw (from its redacted exchanges), left out for a
//   property failure, whose last exchange belongs to whichever shrinking attempt ran last;
// - assertion: the first line of the innermost assertion (a property failure's cause), with every value the server or
//   the run generates (ids, timestamps, secrets, generated names, counts of property runs) replaced by a placeholder,
//   and every compared value by the kind of value it is, plus how the two sides differ in size (the kind of mismatch:
//   "expected […] to deeply equal […] (more items)"), except for a property failure, whose sides another seed changes.
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

/**
 * Words that end API identifiers (create_database, invalid_argument) and look like the 8-character suffix of a
 * generated name (`items_k3j9x0qa`); every other `word_xxxxxxxx` is a generated name.
 */
const IDENTIFIER_WORDS = new Set([
  'argument',
  'database',
  'document',
  'exceeded',
  'function',
  'identity',
  'nonempty',
  'overflow',
  'provider',
  'receiver',
  'subtract',
  'instance',
  'password',
  'resource',
  'required',
]);

/** Values the server or the run generates, whatever the assertion: replaced before anything else. */
const GENERATED: readonly [RegExp, string | ((match: string, ...groups: string[]) => string)][] = [
  [/\bfn[A-Za-z0-9_+/=-]{16,}/g, '<secret>'],
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  // A test file's tenant: fc_<run id>_<file slug>_<hash>.
  [/\bfc_[a-z0-9]+_[a-z0-9_]*_[0-9a-f]{6}\b/g, '<tenant>'],
  [
    /\b([A-Za-z][A-Za-z0-9]*)_([a-z0-9]{8})\b/g,
    (match, prefix: string, suffix: string) => (IDENTIFIER_WORDS.has(suffix) ? match : `${prefix}_<name>`),
  ],
  [/\b[0-9a-f]{16,}\b/gi, '<hex>'],
  // Document ids, transaction times and timestamps in µs or ms.
  [/(?<![\w.])-?\d{10,}n?\b/g, '<id>'],
];

interface Group {
  kind: 'array' | 'object';
  items: number;
}

/** Top-level items of a rendered array or object body ("1, 2", "a: 1, …(7)", "Array(3)"). */
function countItems(body: string): number {
  const trimmed = body.trim();
  if (trimmed === '') return 0;
  const whole = /^Array\((\d+)\)$/.exec(trimmed);
  if (whole) return Number(whole[1]);
  let depth = 0;
  let quote = '';
  let count = 0;
  let start = 0;
  const item = (text: string) => {
    const more = /^…\((\d+)\)$/.exec(text.trim());
    count += more ? Number(more[1]) : 1;
  };
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '[' || c === '{' || c === '(') depth++;
    else if (c === ']' || c === '}' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      item(trimmed.slice(start, i));
      start = i + 1;
    }
  }
  item(trimmed.slice(start));
  return count;
}

/** Index of the bracket closing the one at `open`, respecting quotes; -1 when unbalanced. */
function closing(text: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** HTTP statuses in the harness's "answered status 500, expected 200 or 201" are what the test checks, not data. */
const STATUS_CONTEXT = /\bstatus $|\bstatus \d{3}, expected (?:\d{3} or )*$/;

/** Replaces each compared value by its kind: arrays `[…]`, objects `{…}`, strings `'…'`, numbers `<n>`. */
function collapseValues(text: string): { text: string; groups: Group[]; numbers: number[] } {
  let out = '';
  const groups: Group[] = [];
  const numbers: number[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += `${c}…${c}`;
      i = j + 1;
      continue;
    }
    if (c === '[' || c === '{') {
      const end = closing(text, i);
      if (end !== -1) {
        groups.push({ kind: c === '[' ? 'array' : 'object', items: countItems(text.slice(i + 1, end)) });
        out += c === '[' ? '[…]' : '{…}';
        i = end + 1;
        continue;
      }
    }
    const number = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?n?/.exec(text.slice(i));
    // A number standing alone; digits inside a word or a path (v4, /query/1, PAGE-SIZE-001) are part of it.
    if (number && !/[\w/.\-<]$/.test(out)) {
      const keep = /^\d{3}$/.test(number[0]) && STATUS_CONTEXT.test(out);
      if (!keep) numbers.push(Number(number[0].replace(/n$/, '')));
      out += keep ? number[0] : '<n>';
      i += number[0].length;
      continue;
    }
    out += c;
    i += 1;
  }
  return { text: out, groups, numbers };
}

function relation(actual: number, expected: number, more: string, fewer: string, same: string): string {
  return actual > expected ? more : actual < expected ? fewer : same;
}

/** How the two sides of a comparison differ in size, which a different bug usually changes and a new seed does not. */
function mismatchKind(collapsed: { text: string; groups: Group[]; numbers: number[] }): string {
  const { text, groups, numbers } = collapsed;
  if (/ to have a length of <n> but got <n>/.test(text) && numbers.length >= 2) {
    const [expected, actual] = numbers.slice(-2) as [number, number];
    return ` (${relation(actual, expected, 'longer', 'shorter', 'as long')})`;
  }
  const compared = /^(?:.*? )?expected (\[…\]|\{…\}) to (?:deeply |strictly )?equal (\[…\]|\{…\})/.exec(text);
  if (compared && groups.length >= 2) {
    const [actual, expected] = groups as [Group, Group];
    if (actual.kind !== expected.kind) return '';
    const unit = actual.kind === 'array' ? 'items' : 'keys';
    return ` (${relation(actual.items, expected.items, `more ${unit}`, `fewer ${unit}`, `as many ${unit}`)})`;
  }
  if (/^expected <n> to (?:be|equal|be greater than|be less than)(?: or equal to)? <n>/.test(text) && numbers.length === 2) {
    const [actual, expected] = numbers as [number, number];
    return ` (${relation(actual, expected, 'greater', 'smaller', 'equal')})`;
  }
  return '';
}

/**
 * The assertion part of a signature: `line` with generated values replaced and compared values by their kind, and
 * (`sizes`) how the two sides differ in size. A property failure's sides are its counterexample, which another seed
 * changes, sizes included: its signature keeps only the kind.
 */
export function normaliseAssertion(line: string, { sizes = true }: { sizes?: boolean } = {}): string {
  let text = line.trim();
  for (const [pattern, replacement] of GENERATED) text = text.replace(pattern, replacement as string);
  const collapsed = collapseValues(text);
  return `${collapsed.text.slice(0, MAX_ASSERTION)}${sizes ? mismatchKind(collapsed) : ''}`;
}

/** The line a signature is made of: the first, plus a schema mismatch's first complaint (the first line only names the schema). */
function assertionLine(message: string): string {
  const [first = '', second] = message.split('\n');
  return / does not match schema [\w-]+:$/.test(first) && second?.startsWith('  - ') ? `${first} ${second.trim()}` : first;
}

/**
 * `error` is the test's whole failure text; `propertyCause`, for a property failure, the message of the assertion
 * that failed inside it.
 */
export function failureSignature(
  error: string | undefined,
  exchanges: readonly Exchange[] | undefined,
  propertyCause?: string,
): FailureSignature {
  const line = assertionLine(propertyCause ?? error ?? '');
  const assertion = line.trim() === '' ? undefined : normaliseAssertion(line, { sizes: propertyCause === undefined });
  if (propertyCause !== undefined) return assertion === undefined ? {} : { assertion };
  const answered = [...(exchanges ?? [])].reverse().find((e) => e.response !== undefined);
  const errorCode = errorCodeOf(answered?.response?.body);
  return {
    ...(answered?.response ? { status: answered.response.status } : {}),
    ...(errorCode === undefined ? {} : { errorCode }),
    ...(assertion === undefined ? {} : { assertion }),
  };
}

/** Whether an expectation's signature matches a failure's: every given field, the assertion as a part of it. */
export function signatureMatches(expected: FailureSignature, actual: FailureSignature | undefined): boolean {
  const got = actual ?? {};
  if (expected.status !== undefined && expected.status !== got.status) return false;
  if (expected.errorCode !== undefined && expected.errorCode !== got.errorCode) return false;
  if (expected.assertion === undefined) return true;
  const assertion = got.assertion ?? '';
  // A hand-written entry may quote the raw message; normalised, it matches what the run recorded.
  return assertion.includes(expected.assertion) || assertion.includes(normaliseAssertion(expected.assertion));
}

export function sameSignature(a: FailureSignature | undefined, b: FailureSignature | undefined): boolean {
  return (
    (a?.status ?? null) === (b?.status ?? null) &&
    (a?.errorCode ?? null) === (b?.errorCode ?? null) &&
    (a?.assertion ?? null) === (b?.assertion ?? null)
  );
}
