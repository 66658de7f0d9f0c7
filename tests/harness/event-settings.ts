// What the suite knows about the target's event settings, which a server cannot be asked for: the idle interval
// of periodic status events (DEC-011) and the operations limit that ends a stream (DEC-016). Unset means
// "unknown", and the requirements that depend on them are not checked against that target.
export const EVENT_ENV = {
  statusIntervalMs: 'FAUNA_CONFORMANCE_STATUS_INTERVAL_MS',
  opsLimit: 'FAUNA_CONFORMANCE_OPS_LIMIT',
} as const;

/** The embedded reference server runs with these, so every event requirement is checked against it. */
export const EMBEDDED_EVENT_SETTINGS = { statusIntervalMs: 2_000, opsLimit: 2_000 } as const;

export interface EventSettings {
  readonly statusIntervalMs?: number;
  readonly opsLimit?: number;
}

function positive(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) <= 0) return undefined;
  return Number(raw);
}

export function eventSettings(): EventSettings {
  const statusIntervalMs = positive(process.env[EVENT_ENV.statusIntervalMs]);
  const opsLimit = positive(process.env[EVENT_ENV.opsLimit]);
  return { ...(statusIntervalMs === undefined ? {} : { statusIntervalMs }), ...(opsLimit === undefined ? {} : { opsLimit }) };
}
