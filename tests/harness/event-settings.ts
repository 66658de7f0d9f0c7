// What the suite knows about the target's event settings, which a server cannot be asked for: the idle interval
// of periodic status events (DEC-011), how long a collection with history_days 0 keeps its events (DEC-020), the
// operations limit that ends a stream (DEC-016) and the open streams one secret may hold (DEC-043). The user gives them with a flag, an environment variable or a config key (TARGET_SETTINGS
// names all three); the runner passes them to the workers through the environment. Unset means "unknown": a test that
// needs one ends as skipped, marked with the setting it needs, and the report lists it as needs-setting with the flag.
import type { TestContext } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** The target setting (a TARGET_SETTINGS key) a test could not run without (set by requireEventSetting). */
    needsSetting?: string;
  }
}

export interface EventSettings {
  readonly statusIntervalMs?: number;
  readonly minRetentionMs?: number;
  readonly opsLimit?: number;
  readonly maxStreamsPerSecret?: number;
}

export type TargetSettingName = keyof EventSettings;

export interface TargetSetting {
  /** The runner's flag; the reference server's flag of the same setting has the same name. */
  flag: string;
  /** Placeholder of the flag's value in help and notes. */
  value: string;
  env: string;
  /** Key in fauna-conformance.config.json. */
  configKey: string;
  /** What the setting is, as a note or the help names it. */
  description: string;
}

export const TARGET_SETTINGS: Readonly<Record<TargetSettingName, TargetSetting>> = {
  statusIntervalMs: {
    flag: '--status-interval',
    value: 'MS',
    env: 'FAUNA_CONFORMANCE_STATUS_INTERVAL_MS',
    configKey: 'target.statusIntervalMs',
    description: "the target's idle time before an open stream gets a status event",
  },
  minRetentionMs: {
    flag: '--min-retention-ms',
    value: 'MS',
    env: 'FAUNA_CONFORMANCE_MIN_RETENTION_MS',
    configKey: 'target.minRetentionMs',
    description: 'how long the target keeps the events of a collection with history_days 0 (15 minutes on the real service)',
  },
  opsLimit: {
    flag: '--ops-limit',
    value: 'N',
    env: 'FAUNA_CONFORMANCE_OPS_LIMIT',
    configKey: 'target.opsLimit',
    description: "the operations one account's event streams and feed polls may consume",
  },
  maxStreamsPerSecret: {
    flag: '--max-streams-per-secret',
    value: 'N',
    env: 'FAUNA_CONFORMANCE_MAX_STREAMS_PER_SECRET',
    configKey: 'target.maxStreamsPerSecret',
    description: 'the open event streams one secret may hold',
  },
};

export const TARGET_SETTING_NAMES = Object.keys(TARGET_SETTINGS) as TargetSettingName[];

export const EVENT_ENV: Readonly<Record<TargetSettingName, string>> = {
  statusIntervalMs: TARGET_SETTINGS.statusIntervalMs.env,
  minRetentionMs: TARGET_SETTINGS.minRetentionMs.env,
  opsLimit: TARGET_SETTINGS.opsLimit.env,
  maxStreamsPerSecret: TARGET_SETTINGS.maxStreamsPerSecret.env,
};

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
export const EMBEDDED_EVENT_SETTINGS = {
  statusIntervalMs: 2_000,
  minRetentionMs: 30_000,
  opsLimit: 2_000,
  maxStreamsPerSecret: 8,
} as const;

function positive(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) <= 0) return undefined;
  return Number(raw);
}

export function eventSettings(): EventSettings {
  const settings: { -readonly [K in keyof EventSettings]: number } = {};
  for (const name of TARGET_SETTING_NAMES) {
    const value = positive(process.env[EVENT_ENV[name]]);
    if (value !== undefined) settings[name] = value;
  }
  return settings;
}

/** How a user declares a setting, as the report's note says it: the flag first, then the other two ways. */
export function howToDeclare(name: TargetSettingName): string {
  const s = TARGET_SETTINGS[name];
  return `pass ${s.flag} ${s.value} (or ${s.env}, or ${s.configKey} in the config file)`;
}

/**
 * The setting a test needs; when the target's value is unknown the test ends as skipped, marked with the setting, and
 * its note says how to declare it. Never answers undefined: the test body goes on only with a real value.
 */
export function requireEventSetting(context: TestContext, name: TargetSettingName): number {
  const value = eventSettings()[name];
  if (value !== undefined) return value;
  context.task.meta.needsSetting = name;
  const { skip: notApplicable } = context;
  return notApplicable(`needs ${TARGET_SETTINGS[name].description}: ${howToDeclare(name)}`);
}
