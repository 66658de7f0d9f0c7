// The test workers' half of dead-target detection (the runner's half is tests/runner/target-monitor.ts). Each worker
// tells the runner when a request got no answer at all (a deadline, a refused or reset connection) and, while the
// runner suspects the target, when one was answered. When the runner decides the target stopped answering, every
// request in flight is aborted and every later one fails at once with TARGET_LOST in its message, so the rest of the
// run takes seconds instead of a deadline per request, and the report shows those tests as not run.
//
// A BroadcastChannel reaches every thread of the process: conformance files run in worker threads (CONFORMANCE_POOL).
// Without a runner listening (plain `vitest run`) the messages go nowhere and nothing changes.
import { BroadcastChannel } from 'node:worker_threads';
import { ENV } from './config.js';

/**
 * The channel of one run: its ID is in the environment the runner gives its workers, so nothing else in the process
 * (another run, a unit test of the monitor) talks on it.
 */
export function targetHealthChannel(runId: string | undefined = process.env[ENV.runId]): string {
  return `fauna-conformance-target-health:${runId ?? ''}`;
}

/** In the message of every request refused after the target was declared lost; the reporter reads it. */
export const TARGET_LOST = 'not sent: the run ended because the target stopped answering';

export type HealthReport = { kind: 'hello' } | { kind: 'no-answer'; detail: string } | { kind: 'answered' };
export type HealthVerdict = { kind: 'suspect'; on: boolean } | { kind: 'lost'; reason: string };

let channel: BroadcastChannel | undefined;
let suspect = false;
let lostReason: string | undefined;
const lost = new AbortController();

function open(): BroadcastChannel {
  if (channel) return channel;
  channel = new BroadcastChannel(targetHealthChannel());
  // The channel must not keep a worker alive once its files are done.
  channel.unref();
  channel.onmessage = (event: unknown) => {
    const verdict = (event as { data: HealthVerdict }).data;
    if (verdict.kind === 'suspect') suspect = verdict.on;
    else if (verdict.kind === 'lost' && lostReason === undefined) {
      lostReason = verdict.reason;
      lost.abort(new Error(`${TARGET_LOST} (${verdict.reason})`));
    }
  };
  // A worker that starts after the runner's verdict asks for it (the answer aborts whatever it sent meanwhile).
  channel.postMessage({ kind: 'hello' } satisfies HealthReport);
  return channel;
}

/** Aborted when the runner declares the target lost; every request passes it to undici. */
export function targetLostSignal(): AbortSignal {
  open();
  return lost.signal;
}

/** The reason, once the target is lost. */
export function targetLostReason(): string | undefined {
  open();
  return lostReason;
}

export function reportNoAnswer(detail: string): void {
  if (lostReason === undefined) open().postMessage({ kind: 'no-answer', detail } satisfies HealthReport);
}

/** Only while the runner suspects the target: a healthy run sends nothing per request. */
export function reportAnswered(): void {
  if (suspect && lostReason === undefined) open().postMessage({ kind: 'answered' } satisfies HealthReport);
}
