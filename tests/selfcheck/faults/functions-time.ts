// The faults of spec/requirements/functions-time.md that are code; their rows (ids, titles, what they break) are in functions-time.json.
import type { BufferedResponse, FaultHooks, JsonResponseContext } from '../fault.js';
import { isJsonInteger, isJsonObject, jsonInt, tryParseJson, type JsonObject } from '../json-body.js';
import { onObjects, rewriteJson, rewriteResponse, v4Errors, withJsonBody, withStatus } from './lib/rewrites.js';
import { topLevelCall } from './lib/calls.js';
import type { FaultCode } from './lib/table.js';
import { isLosslessNumber } from 'lossless-json';

const TIMESTAMP_FORMS = [
  'to_micros',
  'to_millis',
  'to_seconds',
  'second',
  'minute',
  'hour',
  'day_of_month',
  'day_of_week',
  'day_of_year',
  'month',
  'year',
];

const UNIT_FORMS = ['epoch', 'time_add', 'time_subtract', 'time_diff'];

/** Every time function: those reading a timestamp, those taking a unit, and the conversions. */
const TIME_FORMS = ['date', 'to_time', 'to_date', ...TIMESTAMP_FORMS, ...UNIT_FORMS];

const MS_PER_DAY = 86_400_000;

const NANOS_PER_MS = 1_000_000n;

const UNIT_NANOS: Readonly<Record<string, bigint>> = {
  day: 86_400_000_000_000n,
  'half day': 43_200_000_000_000n,
  hour: 3_600_000_000_000n,
  minute: 60_000_000_000n,
  second: 1_000_000_000n,
  millisecond: 1_000_000n,
  microsecond: 1000n,
  nanosecond: 1n,
};

function unitNanos(unit: unknown): bigint | undefined {
  if (typeof unit !== 'string') return undefined;
  const name = unit.trim();
  return UNIT_NANOS[name] ?? UNIT_NANOS[name.replace(/s$/, '')];
}

/** Epoch nanoseconds of a `{"@ts": …}` literal in UTC, or undefined. */
function timeLiteralNanos(value: unknown): bigint | undefined {
  if (!isJsonObject(value) || typeof value['@ts'] !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/.exec(value['@ts']);
  if (m === null) return undefined;
  const ms = Date.parse(`${m[1]}Z`);
  return Number.isNaN(ms) ? undefined : BigInt(ms) * NANOS_PER_MS + BigInt((m[2] ?? '').padEnd(9, '0'));
}

/** Epoch milliseconds of a `{"@date": …}` literal, or undefined. */
function dateLiteralMillis(value: unknown): number | undefined {
  if (!isJsonObject(value) || typeof value['@date'] !== 'string') return undefined;
  const ms = Date.parse(value['@date']);
  return Number.isNaN(ms) ? undefined : ms;
}

function integerLiteral(value: unknown): bigint | undefined {
  return isJsonInteger(value) ? BigInt(String(value)) : undefined;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function parseBody(response: BufferedResponse): unknown {
  const parsed = tryParseJson(response.body);
  return parsed.ok ? parsed.value : undefined;
}

/** A JSON hook replacing the `resource` of a 200 answer to a top-level call of `forms` by `answer(call, form, resource)`, when that answers something. */
function answerTopLevel(
  forms: readonly string[],
  answer: (call: JsonObject, form: string, resource: unknown) => unknown,
): FaultHooks['json'] {
  return rewriteJson(
    (body, context) =>
      context.status === 200 && isJsonObject(body) && 'resource' in body && topLevelCall(context.original, forms) !== undefined,
    (body, context) => {
      const { call, form } = topLevelCall(context.original, forms)!;
      const replacement = answer(call, form, (body as JsonObject).resource);
      if (replacement === undefined) return false;
      (body as JsonObject).resource = replacement;
      return true;
    },
  );
}

/** A response hook answering 200 `{"resource": answer(…)}` to a top-level call of `forms` the server refused with a description that `matches`. */
function acceptInstead(
  forms: readonly string[],
  matches: (description: string) => boolean,
  answer: (call: JsonObject, form: string) => unknown,
): FaultHooks['response'] {
  let resource: unknown;
  return rewriteResponse(
    (res, ctx) => {
      const top = topLevelCall(ctx.original, forms);
      if (res.status !== 400 || top === undefined) return false;
      const description = v4Errors(parseBody(res))[0]?.description;
      if (typeof description !== 'string' || !matches(description)) return false;
      resource = answer(top.call, top.form);
      return resource !== undefined;
    },
    (res) => withStatus(withJsonBody(res, { resource }), 200),
  );
}

/** A response hook answering 400 `invalid argument` `refusal(…)` to a top-level call of `forms` the server answered with 200. */
function refuseInstead(
  forms: readonly string[],
  refusal: (call: JsonObject, form: string) => { description: string; position: unknown[] } | undefined,
): FaultHooks['response'] {
  let error: { description: string; position: unknown[] } | undefined;
  return rewriteResponse(
    (res, ctx) => {
      const top = topLevelCall(ctx.original, forms);
      if (res.status !== 200 || top === undefined) return false;
      error = refusal(top.call, top.form);
      return error !== undefined;
    },
    (res) =>
      withStatus(
        withJsonBody(res, { errors: [{ position: error!.position, code: 'invalid argument', description: error!.description }] }),
        400,
      ),
  );
}

/** A JSON hook rewriting the `invalid argument` errors of a top-level call of `forms`. */
function rewriteErrors(forms: readonly string[], rewrite: (error: JsonObject, form: string) => boolean): FaultHooks['json'] {
  return rewriteJson(
    (_body, context: JsonResponseContext) => context.status === 400 && topLevelCall(context.original, forms) !== undefined,
    (body, context) => {
      const { form } = topLevelCall(context.original, forms)!;
      return v4Errors(body).filter((error) => error.code === 'invalid argument' && rewrite(error, form)).length;
    },
  );
}

/** A `YYYY-MM-DD` text read the way JavaScript's Date.UTC does, rolling a day past the month's end into the next month. */
function rolledOverDate(text: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return undefined;
  const [month, day] = [Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return new Date(Date.UTC(Number(m[1]), month - 1, day)).toISOString().slice(0, 10);
}

/** What JavaScript's Date answers for a timestamp function of the midnight of a date. */
function dateFieldLikeJs(form: string, ms: number): bigint | undefined {
  const d = new Date(ms);
  const fields: Record<string, number> = {
    to_millis: ms,
    to_seconds: ms / 1000,
    second: 0,
    minute: 0,
    hour: 0,
    day_of_month: d.getUTCDate(),
    day_of_week: d.getUTCDay() === 0 ? 7 : d.getUTCDay(),
    day_of_year: (ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / MS_PER_DAY + 1,
    month: d.getUTCMonth() + 1,
    year: d.getUTCFullYear(),
  };
  if (form === 'to_micros') return BigInt(ms) * 1000n;
  return form in fields ? BigInt(fields[form]!) : undefined;
}

export const code: FaultCode = {
  'TIME-TEXT-STRICT': onObjects((object) => {
    const text = object.time;
    if (typeof text !== 'string' || !(text !== text.trim() || /[+-]\d{4}$/.test(text))) return false;
    object.time = { abort: `Cannot cast '${text}' to a time.` };
    return true;
  }),
  'TIME-MICROSECOND-PRECISION': () => ({
    json: answerTopLevel(TIME_FORMS, (_call, _form, resource) => {
      if (!isJsonObject(resource) || typeof resource['@ts'] !== 'string') return undefined;
      const m = /^(.*)\.(\d{6})(\d{3})Z$/.exec(resource['@ts']);
      if (m === null) return undefined;
      const micros = m[2]!.replace(/000$/, '').replace(/^000$/, '');
      return { '@ts': `${m[1]}${micros === '' ? '' : `.${micros}`}Z` };
    }),
  }),
  'TIME-UNIT-CASE-INSENSITIVE': onObjects((object) => {
    if (typeof object.unit !== 'string' || !UNIT_FORMS.some((form) => form in object) || object.unit === object.unit.toLowerCase())
      return false;
    object.unit = object.unit.toLowerCase();
    return true;
  }),
  'TIME-TEXT-NOT-TRIMMED': () => ({
    response: refuseInstead(['date', 'to_date', 'to_time'], (call, form) => {
      const text = call[form];
      if (typeof text !== 'string' || text.trim() === text) return undefined;
      return { description: `Cannot cast '${text}' to a ${form === 'to_time' ? 'time' : 'date'}.`, position: [] };
    }),
  }),
  'TIME-DATE-ROLLS-OVER': () => ({
    response: acceptInstead(
      ['date', 'to_date'],
      (d) => d.startsWith("Cannot cast '"),
      (call, form) => {
        const text = call[form];
        const rolled = typeof text === 'string' ? rolledOverDate(text) : undefined;
        return rolled === undefined ? undefined : { '@date': rolled };
      },
    ),
  }),
  'TIME-CAST-ERROR-AT-ARGUMENT': () => ({
    json: rewriteErrors(['date', 'to_time', 'to_date'], (error, form) => {
      if (!Array.isArray(error.position) || error.position.length !== 0) return false;
      error.position = [form];
      return true;
    }),
  }),
  'TIME-TOTIME-INTEGER-AS-MICROS': onObjects((object) => {
    if (Object.keys(object).length !== 1 || !isJsonInteger(object.to_time)) return false;
    const count = object.to_time;
    delete object.to_time;
    Object.assign(object, { epoch: count, unit: 'microseconds' });
    return true;
  }),
  'TIME-CONVERSIONS-TRUNCATE': () => ({
    json: answerTopLevel(['to_micros', 'to_millis', 'to_seconds'], (call, form) => {
      const argument = call[form];
      const nanos =
        timeLiteralNanos(argument) ?? ((micros) => (micros === undefined ? undefined : micros * 1000n))(integerLiteral(argument));
      if (nanos === undefined) return undefined;
      const per = form === 'to_micros' ? 1000n : form === 'to_millis' ? NANOS_PER_MS : 1_000_000_000n;
      return nanos >= 0n || nanos % per === 0n ? undefined : jsonInt(nanos / per);
    }),
  }),
  'TIME-DAY-OF-WEEK-SUNDAY-ZERO': () => ({
    json: answerTopLevel(['day_of_week'], (_call, _form, resource) =>
      isLosslessNumber(resource) && resource.toString() === '7' ? jsonInt(0) : undefined,
    ),
  }),
  'TIME-TIMESTAMP-REJECTS-INTEGER': () => ({
    response: refuseInstead(TIMESTAMP_FORMS, (call, form) =>
      isJsonInteger(call[form]) ? { description: 'Time expected, Integer provided.', position: [form] } : undefined,
    ),
  }),
  'TIME-TIMESTAMP-ACCEPTS-DATE': () => ({
    response: acceptInstead(
      TIMESTAMP_FORMS,
      (d) => d === 'Time expected, Date provided.',
      (call, form) => {
        const ms = dateLiteralMillis(call[form]);
        const value = ms === undefined ? undefined : dateFieldLikeJs(form, ms);
        return value === undefined ? undefined : jsonInt(value);
      },
    ),
  }),
  'TIME-DATE-TIME-UNITS-ACCEPTED': () => ({
    response: acceptInstead(
      ['time_add', 'time_subtract', 'time_diff'],
      (d) => d.startsWith('Invalid time unit'),
      (call, form) => {
        if (form !== 'time_diff') return isJsonObject(call[form]) ? call[form] : undefined;
        const [from, to, per] = [dateLiteralMillis(call.time_diff), dateLiteralMillis(call.other), unitNanos(call.unit)];
        if (from === undefined || to === undefined || per === undefined) return undefined;
        return jsonInt((BigInt(to - from) * NANOS_PER_MS) / per);
      },
    ),
  }),
  'TIME-OFFSET-DOUBLE-TRUNCATED': onObjects((object) => {
    if (!('time_add' in object || 'time_subtract' in object) || !isLosslessNumber(object.offset) || isJsonInteger(object.offset))
      return false;
    object.offset = jsonInt(Math.trunc(Number(object.offset.toString())));
    return true;
  }),
  'TIME-DIFF-FLOORS': () => ({
    json: answerTopLevel(['time_diff'], (call, _form, resource) => {
      const [from, to, per] = [timeLiteralNanos(call.time_diff), timeLiteralNanos(call.other), unitNanos(call.unit)];
      if (from === undefined || to === undefined || per === undefined) return undefined;
      const floored = floorDiv(to - from, per);
      return isLosslessNumber(resource) && resource.toString() === floored.toString() ? undefined : jsonInt(floored);
    }),
  }),
  'TIME-DIFF-MIXED-ACCEPTED': () => ({
    response: acceptInstead(
      ['time_diff'],
      (d) => d === 'Incompatible time arguments.',
      (call) => {
        const nanosOf = (value: unknown) =>
          timeLiteralNanos(value) ?? ((ms) => (ms === undefined ? undefined : BigInt(ms) * NANOS_PER_MS))(dateLiteralMillis(value));
        const [from, to, per] = [nanosOf(call.time_diff), nanosOf(call.other), unitNanos(call.unit)];
        return from === undefined || to === undefined || per === undefined ? undefined : jsonInt((to - from) / per);
      },
    ),
  }),
};
