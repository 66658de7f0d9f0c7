/** ISO 8601 text ↔ the value model's nanosecond times and day-count dates. */
const TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const NANOS_PER_MS = 1_000_000n;
const MS_PER_DAY = 86_400_000;

/** Epoch milliseconds of a UTC date and time; unlike `Date.UTC`, years 0 to 99 are not taken as 1900 to 1999. */
function utcMillis(year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hours, minutes, seconds, 0);
  return date.getTime();
}

/** Epoch nanoseconds of an ISO time, or undefined when the text is not one. */
export function parseIsoTime(text: string): bigint | undefined {
  const m = TIME_PATTERN.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac = '', zone] = m;
  const ms = utcMillis(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(ms);
  if (Number.isNaN(ms) || check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const sign = zone!.startsWith('-') ? -1 : 1;
    offsetMinutes = sign * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(4, 6)));
  }
  const nanos = BigInt(frac.padEnd(9, '0') || '0');
  return BigInt(ms - offsetMinutes * 60_000) * NANOS_PER_MS + nanos;
}

/** Renders like Java's Instant: seconds, then 0, 3, 6 or 9 fraction digits. */
export function formatIsoTime(epochNanos: bigint): string {
  let seconds = epochNanos / 1_000_000_000n;
  let nanos = epochNanos % 1_000_000_000n;
  if (nanos < 0n) {
    nanos += 1_000_000_000n;
    seconds -= 1n;
  }
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  if (nanos === 0n) return `${base}Z`;
  let digits = nanos.toString().padStart(9, '0');
  while (digits.length > 3 && digits.endsWith('000')) digits = digits.slice(0, -3);
  return `${base}.${digits}Z`;
}

export function parseIsoDate(text: string): number | undefined {
  const m = DATE_PATTERN.exec(text);
  if (!m) return undefined;
  const ms = utcMillis(Number(m[1]), Number(m[2]), Number(m[3]));
  const check = new Date(ms);
  if (Number.isNaN(ms) || check.getUTCDate() !== Number(m[3])) return undefined;
  return ms / MS_PER_DAY;
}

export function formatIsoDate(epochDays: number): string {
  return new Date(epochDays * MS_PER_DAY).toISOString().slice(0, 10);
}
