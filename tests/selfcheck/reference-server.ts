// The seam to the reference server: loaded only when a selfcheck starts one (as the harness's global setup does).
import type { RunningReferenceServer } from '../../reference-impl/server.js';
import { EMBEDDED_EVENT_SETTINGS, EVENT_ENV } from '../harness/event-settings.js';

export type { RunningReferenceServer };

/** Longer than LIMIT-TIME-001's check allows a timed-out query to take, so a fault ignoring the deadline is seen. */
const SELFCHECK_QUERY_TIME_LIMIT_MS = 4_000;

export async function startReferenceServer(): Promise<RunningReferenceServer> {
  const { startReferenceServer: start } = await import('../../reference-impl/server.js');
  // The per-secret stream limit and the operations limit are small and cheap to reach, and the retention window short
  // enough to wait out, so the suite runs learn them (their processes inherit the environment) and their tests run; the
  // status interval stays unknown, which keeps fault runs short.
  const { maxStreamsPerSecret, minRetentionMs, opsLimit } = EMBEDDED_EVENT_SETTINGS;
  process.env[EVENT_ENV.maxStreamsPerSecret] = String(maxStreamsPerSecret);
  process.env[EVENT_ENV.minRetentionMs] = String(minRetentionMs);
  process.env[EVENT_ENV.opsLimit] = String(opsLimit);
  // A query runs at most a few seconds: faults run side by side against this one server, and one that stretches a
  // query's x-query-timeout (QUERY-TIMEOUT-IGNORED) must not let a long query hold it for the default 30 s.
  // Failpoints are honoured only for the requests a fault's proxy marks, so the faults that use them share this server.
  return start({
    port: 0,
    host: '127.0.0.1',
    events: { maxStreamsPerSecret, minRetentionMs, opsLimit },
    queryTimeLimitMs: SELFCHECK_QUERY_TIME_LIMIT_MS,
    failpoints: true,
  });
}
