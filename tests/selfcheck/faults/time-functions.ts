// Faults against the time and date functions (FN-TIME; spec/requirements/functions-time.md): each is a server that
// gets one rule of the family wrong the way an implementation on JavaScript's Date, or a hand-written one, plausibly
// would — microsecond times, Sunday as day 0, floor instead of truncation, lenient dates — by rewriting the
// expression it is sent or the answer to a call made at the top level of a query.
import { isLosslessNumber } from 'lossless-json';
import type { BufferedResponse, ExchangeContext, Fault, FaultHooks, JsonResponseContext } from '../fault.js';
import { forEachObject, isJsonInteger, isJsonObject, jsonInt, tryParseJson, type JsonObject } from '../json-body.js';
import { rewriteExpression, rewriteJson, rewriteResponse, v4Errors, v4Expression, withJsonBody, withStatus } from './lib/rewrites.js';

const TIME_FORMS = ['epoch', 'date', 'to_time', 'to_date', 'to_micros', 'to_millis', 'to_seconds', 'second', 'minute', 'hour', 'day_of_month', 'day_of_week', 'day_of_year', 'month', 'year', 'time_add', 'time_subtract', 'time_diff'];
const TIMESTAMP_FORMS = ['to_micros', 'to_millis', 'to_seconds', 'second', 'minute', 'hour', 'day_of_month', 'day_of_week', 'day_of_year', 'month', 'year'];
const UNIT_FORMS = ['epoch', 'time_add', 'time_subtract', 'time_diff'];
const BOUNDS = 'dates and times must be between -1000000000-01-01T00:00:00Z and +1000000000-12-31T23:59:59.999999999Z';
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

/** The top-level expression and its form, when the form is one of `forms`. */
function topLevelCall(context: ExchangeContext, forms: readonly string[]): { call: JsonObject; form: string } | undefined {
  const expression = v4Expression(context.original);
  if (!isJsonObject(expression)) return undefined;
  const form = forms.find((name) => name in expression);
  return form === undefined ? undefined : { call: expression, form };
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
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

function parseBody(response: BufferedResponse): unknown {
  const parsed = tryParseJson(response.body);
  return parsed.ok ? parsed.value : undefined;
}

/** A JSON hook replacing the `resource` of a 200 answer to a top-level call of `forms` by `answer(call, form, resource)`, when that answers something. */
function answerTopLevel(forms: readonly string[], answer: (call: JsonObject, form: string, resource: unknown) => unknown): FaultHooks['json'] {
  return rewriteJson(
    (body, context) => context.status === 200 && isJsonObject(body) && 'resource' in body && topLevelCall(context, forms) !== undefined,
    (body, context) => {
      const { call, form } = topLevelCall(context, forms)!;
      const replacement = answer(call, form, (body as JsonObject).resource);
      if (replacement === undefined) return false;
      (body as JsonObject).resource = replacement;
      return true;
    },
  );
}

/** A response hook answering 200 `{"resource": answer(…)}` to a top-level call of `forms` the server refused with a description that `matches`. */
function acceptInstead(forms: readonly string[], matches: (description: string) => boolean, answer: (call: JsonObject, form: string) => unknown): FaultHooks['response'] {
  let resource: unknown;
  return rewriteResponse(
    (res, ctx) => {
      const top = topLevelCall(ctx, forms);
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
function refuseInstead(forms: readonly string[], refusal: (call: JsonObject, form: string) => { description: string; position: unknown[] } | undefined): FaultHooks['response'] {
  let error: { description: string; position: unknown[] } | undefined;
  return rewriteResponse(
    (res, ctx) => {
      const top = topLevelCall(ctx, forms);
      if (res.status !== 200 || top === undefined) return false;
      error = refusal(top.call, top.form);
      return error !== undefined;
    },
    (res) => withStatus(withJsonBody(res, { errors: [{ position: error!.position, code: 'invalid argument', description: error!.description }] }), 400),
  );
}

/** A JSON hook rewriting the `invalid argument` errors of a top-level call of `forms`. */
function rewriteErrors(forms: readonly string[], rewrite: (error: JsonObject, form: string) => boolean): FaultHooks['json'] {
  return rewriteJson(
    (_body, context: JsonResponseContext) => context.status === 400 && topLevelCall(context, forms) !== undefined,
    (body, context) => {
      const { form } = topLevelCall(context, forms)!;
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

export const TIME_FUNCTION_FAULTS: readonly Fault[] = [
  {
    id: 'TIME-TEXT-STRICT',
    title: 'Time reads only untrimmed text with a colon offset',
    breaks: ['FN-TIME-020'],
    area: 'core',
    description: 'The text of `{"time": s}` is read as a strict ISO 8601 instant: a padded string or an offset without a colon (`+0100`) is refused with "Cannot cast \'<s>\' to a time.", as by a server that parses with `Date`.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          const text = object.time;
          if (typeof text !== 'string' || !(text !== text.trim() || /[+-]\d{4}$/.test(text))) return;
          object.time = { abort: `Cannot cast '${text}' to a time.` };
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'TIME-MICROSECOND-PRECISION',
    title: 'Times keep only microseconds',
    breaks: ['FN-TIME-001', 'FN-TIME-013', 'FN-TIME-006'],
    area: 'core',
    description: 'Epoch, ToTime, TimeAdd and TimeSubtract answer times cut to microseconds, as a server that stores times as microsecond counts would: Epoch(1, "nanosecond") is 1970-01-01T00:00:00Z.',
    apply: () => ({
      json: answerTopLevel(TIME_FORMS, (_call, _form, resource) => {
        if (!isJsonObject(resource) || typeof resource['@ts'] !== 'string') return undefined;
        const m = /^(.*)\.(\d{6})(\d{3})Z$/.exec(resource['@ts']);
        if (m === null) return undefined;
        const micros = m[2]!.replace(/000$/, '').replace(/^000$/, '');
        return { '@ts': `${m[1]}${micros === '' ? '' : `.${micros}`}Z` };
      }),
    }),
  },
  {
    id: 'TIME-UNIT-CASE-INSENSITIVE',
    title: 'Unit names are read in any letter case',
    breaks: ['FN-TIME-002'],
    area: 'core',
    description: 'Epoch, TimeAdd, TimeSubtract and TimeDiff accept "Day" or "HOURS" as units, which the service refuses with "Time Unit expected, String provided.".',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (typeof object.unit !== 'string' || !UNIT_FORMS.some((form) => form in object) || object.unit === object.unit.toLowerCase()) return;
          object.unit = object.unit.toLowerCase();
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'TIME-BOUNDS-JS-MESSAGE',
    title: 'Times beyond the bounds fail with JavaScript\'s message',
    breaks: ['FN-TIME-003', 'FN-TIME-015'],
    area: 'core',
    description: 'A result of Epoch, TimeAdd or TimeSubtract beyond Instant.MIN/MAX answers "Invalid time value", as a server built on JavaScript dates would, instead of the service\'s bounds description.',
    apply: () => ({
      json: rewriteErrors(UNIT_FORMS, (error) => {
        if (error.description !== BOUNDS) return false;
        error.description = 'Invalid time value';
        return true;
      }),
    }),
  },
  {
    id: 'TIME-TEXT-NOT-TRIMMED',
    title: 'Date, ToDate and ToTime refuse text with blanks around it',
    breaks: ['FN-TIME-004', 'FN-TIME-008', 'FN-TIME-006'],
    area: 'core',
    description: 'Date(" 1970-01-01\\n"), ToDate(" 2024-02-29 ") and ToTime(" 2019-05-27T05:15:48Z\\t") answer "Cannot cast … to a date/time." where the service trims the text first.',
    apply: () => ({
      response: refuseInstead(['date', 'to_date', 'to_time'], (call, form) => {
        const text = call[form];
        if (typeof text !== 'string' || text.trim() === text) return undefined;
        return { description: `Cannot cast '${text}' to a ${form === 'to_time' ? 'time' : 'date'}.`, position: [] };
      }),
    }),
  },
  {
    id: 'TIME-DATE-ROLLS-OVER',
    title: 'Dates past the end of their month roll over',
    breaks: ['FN-TIME-005', 'FN-TIME-009'],
    area: 'core',
    description: 'Date("2023-02-29") answers 2023-03-01, as JavaScript\'s Date.UTC reads it, where the service refuses a day the month does not have.',
    apply: () => ({
      response: acceptInstead(['date', 'to_date'], (d) => d.startsWith('Cannot cast \''), (call, form) => {
        const text = call[form];
        const rolled = typeof text === 'string' ? rolledOverDate(text) : undefined;
        return rolled === undefined ? undefined : { '@date': rolled };
      }),
    }),
  },
  {
    id: 'TIME-CAST-ERROR-AT-ARGUMENT',
    title: 'Date, ToTime and ToDate report a failed conversion at the argument',
    breaks: ['FN-TIME-007', 'FN-TIME-009', 'FN-TIME-005'],
    area: 'core',
    description: 'ToTime(true) and Date("x") fail at ["to_time"] and ["date"] where the service reports the position of the call itself.',
    apply: () => ({
      json: rewriteErrors(['date', 'to_time', 'to_date'], (error, form) => {
        if (!Array.isArray(error.position) || error.position.length !== 0) return false;
        error.position = [form];
        return true;
      }),
    }),
  },
  {
    id: 'TIME-TOTIME-INTEGER-AS-MICROS',
    title: 'ToTime of an integer counts microseconds',
    breaks: ['FN-TIME-006'],
    area: 'core',
    description: 'ToTime(n) answers the time n microseconds after the epoch, as the timestamp functions count, where the service counts milliseconds.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (Object.keys(object).length !== 1 || !isJsonInteger(object.to_time)) return;
          const count = object.to_time;
          delete object.to_time;
          Object.assign(object, { epoch: count, unit: 'microseconds' });
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'TIME-CONVERSIONS-TRUNCATE',
    title: 'ToMicros, ToMillis and ToSeconds round toward zero',
    breaks: ['FN-TIME-010'],
    area: 'core',
    description: 'ToSeconds of 1969-12-31T23:59:59.5Z answers 0 where the service rounds down to -1.',
    apply: () => ({
      json: answerTopLevel(['to_micros', 'to_millis', 'to_seconds'], (call, form) => {
        const argument = call[form];
        const nanos = timeLiteralNanos(argument) ?? ((micros) => (micros === undefined ? undefined : micros * 1000n))(integerLiteral(argument));
        if (nanos === undefined) return undefined;
        const per = form === 'to_micros' ? 1000n : form === 'to_millis' ? NANOS_PER_MS : 1_000_000_000n;
        return nanos >= 0n || nanos % per === 0n ? undefined : jsonInt(nanos / per);
      }),
    }),
  },
  {
    id: 'TIME-DAY-OF-WEEK-SUNDAY-ZERO',
    title: 'DayOfWeek counts Sunday as 0',
    breaks: ['FN-TIME-011'],
    area: 'core',
    description: 'DayOfWeek answers JavaScript\'s getUTCDay(): 0 for Sunday where the service answers 7 (ISO, Monday 1).',
    apply: () => ({
      json: answerTopLevel(['day_of_week'], (_call, _form, resource) => (isLosslessNumber(resource) && resource.toString() === '7' ? jsonInt(0) : undefined)),
    }),
  },
  {
    id: 'TIME-TIMESTAMP-REJECTS-INTEGER',
    title: 'The timestamp functions refuse microsecond counts',
    breaks: ['FN-TIME-010', 'FN-TIME-011'],
    area: 'core',
    description: 'ToMillis(1500) and Year(0) answer "Time expected, Integer provided." where the service takes an integer as microseconds since the epoch.',
    apply: () => ({
      response: refuseInstead(TIMESTAMP_FORMS, (call, form) => (isJsonInteger(call[form]) ? { description: 'Time expected, Integer provided.', position: [form] } : undefined)),
    }),
  },
  {
    id: 'TIME-TIMESTAMP-ACCEPTS-DATE',
    title: 'The timestamp functions take a date as its midnight',
    breaks: ['FN-TIME-012'],
    area: 'core',
    description: 'ToMillis and DayOfWeek of a date answer the value for its midnight, where the service answers "Time expected, Date provided.".',
    apply: () => ({
      response: acceptInstead(TIMESTAMP_FORMS, (d) => d === 'Time expected, Date provided.', (call, form) => {
        const ms = dateLiteralMillis(call[form]);
        const value = ms === undefined ? undefined : dateFieldLikeJs(form, ms);
        return value === undefined ? undefined : jsonInt(value);
      }),
    }),
  },
  {
    id: 'TIME-DATE-TIME-UNITS-ACCEPTED',
    title: 'Dates accept time units',
    breaks: ['FN-TIME-014', 'FN-TIME-018'],
    area: 'core',
    description: 'TimeAdd of hours to a date answers the date unchanged and TimeDiff of dates in hours answers 24 per day, where the service answers "Invalid time unit …".',
    apply: () => ({
      response: acceptInstead(['time_add', 'time_subtract', 'time_diff'], (d) => d.startsWith('Invalid time unit'), (call, form) => {
        if (form !== 'time_diff') return isJsonObject(call[form]) ? call[form] : undefined;
        const [from, to, per] = [dateLiteralMillis(call.time_diff), dateLiteralMillis(call.other), unitNanos(call.unit)];
        if (from === undefined || to === undefined || per === undefined) return undefined;
        return jsonInt((BigInt(to - from) * NANOS_PER_MS) / per);
      }),
    }),
  },
  {
    id: 'TIME-OFFSET-DOUBLE-TRUNCATED',
    title: 'TimeAdd and TimeSubtract truncate a decimal offset',
    breaks: ['FN-TIME-016'],
    area: 'core',
    description: 'TimeAdd(t, 1.5, "day") moves by one day where the service answers "Integer expected, Double provided." at ["offset"].',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('time_add' in object || 'time_subtract' in object) || !isLosslessNumber(object.offset) || isJsonInteger(object.offset)) return;
          object.offset = jsonInt(Math.trunc(Number(object.offset.toString())));
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'TIME-DIFF-FLOORS',
    title: 'TimeDiff rounds toward the past',
    breaks: ['FN-TIME-017'],
    area: 'core',
    description: 'TimeDiff from 01:59:59 back to 00:00:00 in hours answers -2 (floor division) where the service truncates toward zero and answers -1.',
    apply: () => ({
      json: answerTopLevel(['time_diff'], (call, _form, resource) => {
        const [from, to, per] = [timeLiteralNanos(call.time_diff), timeLiteralNanos(call.other), unitNanos(call.unit)];
        if (from === undefined || to === undefined || per === undefined) return undefined;
        const floored = floorDiv(to - from, per);
        return isLosslessNumber(resource) && resource.toString() === floored.toString() ? undefined : jsonInt(floored);
      }),
    }),
  },
  {
    id: 'TIME-DIFF-MIXED-ACCEPTED',
    title: 'TimeDiff of a time and a date takes the date as its midnight',
    breaks: ['FN-TIME-019'],
    area: 'core',
    description: 'TimeDiff(Date("1970-01-01"), Time("1970-01-01T00:00:00Z"), "hours") answers 0 where the service answers "Incompatible time arguments.".',
    apply: () => ({
      response: acceptInstead(['time_diff'], (d) => d === 'Incompatible time arguments.', (call) => {
        const nanosOf = (value: unknown) => timeLiteralNanos(value) ?? ((ms) => (ms === undefined ? undefined : BigInt(ms) * NANOS_PER_MS))(dateLiteralMillis(value));
        const [from, to, per] = [nanosOf(call.time_diff), nanosOf(call.other), unitNanos(call.unit)];
        return from === undefined || to === undefined || per === undefined ? undefined : jsonInt((to - from) / per);
      }),
    }),
  },
];
