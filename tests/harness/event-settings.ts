// What the suite knows about the target's event settings, which a server cannot be asked for: the idle interval
// of periodic status events (DEC-011), how long a collection with history_days 0 keeps its events (DEC-020), the
// operations limit that ends a stream (DEC-016) and the open streams one secret may hold (DEC-043). They come from the
// config file (`target.statusIntervalMs`, `target.minRetentionMs`, `target.opsLimit`, `target.maxStreamsPerSecret`)
// or these environment variables. Unset means
// "unknown": a test that needs one skips itself with a note naming the setting, which the report shows.
import type { TestContext } from 'vitest';
export const EVENT_ENV = {
  statusIntervalMs: 'FAUNA_CONFORMANCE_STATUS_INTERVAL_MS',
  minRetentionMs: 'FAUNA_CONFORMANCE_MIN_RETENTION_MS',
  opsLimit: 'FAUNA_CONFORMANCE_OPS_LIMIT',
  maxStreamsPerSecret: 'FAUNA_CONFORMANCE_MAX_STREAMS_PER_SECRET',
} as const;

/** The embedded reference server runs with these, so every event requirement is checked against it. */
/**
 * The operations limit is per account (a tenant = a top-level database): it must exceed what any one events test
 * file consumes (stream.test.ts, the most, about 800), and LIMIT-OPS-001 writes past it event by event, so a
 * higher limit only makes that test slower.
 */
/** The stream limit is per secret: small, so its test opens few streams, yet above what other files hold on one secret. */
/**
 * The retention window applies to every collection created without `history_days` (0, as the real service), so it
 * must outlast the longest any test takes between creating a source (or reading a cursor) and consuming it; the
 * retention test waits it out once.
 */
export const EMBEDDED_EVENT_SETTINGS = { statusIntervalMs: 2_000, minRetentionMs: 30_000, opsLimit: 2_000, maxStreamsPerSecret: 8 } as const;

export interface EventSettings {
  readonly statusIntervalMs?: number;
  readonly minRetentionMs?: number;
  readonly opsLimit?: number;
  readonly maxStreamsPerSecret?: number;
}

function positive(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) <= 0) return undefined;
  return Number(raw);
}

export function eventSettings(): EventSettings {
  const settings: { -readonly [K in keyof EventSettings]: number } = {};
  for (const name of Object.keys(EVENT_ENV) as (keyof EventSettings)[]) {
    const value = positive(process.env[EVENT_ENV[name]]);
    if (value !== undefined) settings[name] = value;
  }
  return settings;
}

const SETTING_SOURCE: Record<keyof EventSettings, string> = {
  statusIntervalMs: `target.statusIntervalMs in the config file or ${EVENT_ENV.statusIntervalMs}`,
  minRetentionMs: `target.minRetentionMs in the config file or ${EVENT_ENV.minRetentionMs}`,
  opsLimit: `target.opsLimit in the config file or ${EVENT_ENV.opsLimit}`,
  maxStreamsPerSecret: `target.maxStreamsPerSecret in the config file or ${EVENT_ENV.maxStreamsPerSecret}`,
};

/**
 * The setting a test needs; when the target's value is unknown the test ends as skipped, and its note (in the
 * report) says which setting to declare. Never answers undefined: the test body goes on only with a real value.
 */
export function requireEventSetting(context: TestContext, name: keyof EventSettings): number {
  const value = eventSettings()[name];
  if (value !== undefined) return value;
  const { skip: notApplicable } = context;
  return notApplicable(`not applicable: the target's ${name} is unknown; declare it with ${SETTING_SOURCE[name]}`);
}
