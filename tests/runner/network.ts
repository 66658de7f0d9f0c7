// How many test files run at once. Against a server on this machine the suite is CPU-bound and runs
// conformanceMaxWorkers(cores) files; against a distant one each file mostly waits a round trip per request, so more
// files run at once, in proportion to how much longer a request takes there. Each file keeps its own tenant, so more
// files at once change nothing about isolation, only how many tenants exist at a time.
import { Client } from 'undici';
import { conformanceMaxWorkers } from '../harness/config.js';

/**
 * A file's time per request on a target on this machine: the whole suite makes about 6,200 requests in 21-25 s on 2
 * cores with 4 files at once (the direct run of bench/remote-target.bench.ts), about 13-16 ms of a file's time per
 * request. A round trip lengthens a file only by the requests it makes one after another (tests of a
 * `describe.concurrent` block overlap theirs): about 4,000 in the suite, counted per file. The divisor is tuned a
 * little below that time, so the waiting a round trip adds, spread over the files, stays within the local run's time
 * with some to spare (at 20 ms, 10 files at a 30 ms round trip made the suite 1.53× its local time).
 */
const LOCAL_REQUEST_MS = 12;
/** Below this a target counts as local: loopback and a LAN answer within a millisecond or two. */
const LOCAL_ROUND_TRIP_MS = 2;
/**
 * The suite has about 70 files, and once the longest ones all run from the start the longest file is the bound;
 * every thread also costs the CPU it takes to load vitest and the harness (about 0.9 s each: the suite's client took
 * 19 s of CPU with 4 files at once, 44 s with 32), and memory.
 */
export const MAX_FILES_IN_FLIGHT = 32;
const PINGS = 5;

/**
 * The shortest of a few GET /ping over one kept-alive connection (the first, which also connects, not counted): the
 * network's share of a request. A busy machine only ever adds to it, so the shortest is the one to trust.
 */
export async function measureRoundTrip(url: string, timeoutMs: number): Promise<number | undefined> {
  const client = new Client(new URL(url).origin, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connectTimeout: timeoutMs });
  const path = `${new URL(url).pathname.replace(/\/$/, '')}/ping`;
  const times: number[] = [];
  try {
    for (let i = 0; i < PINGS; i++) {
      const started = performance.now();
      const res = await client.request({ method: 'GET', path, signal: AbortSignal.timeout(timeoutMs) });
      await res.body.dump();
      if (i > 0) times.push(performance.now() - started);
    }
  } catch {
    // A target that cannot answer five pings in a row gets the local default; the run's own checks say why.
    return undefined;
  } finally {
    await client.close().catch(() => {});
  }
  return Math.round(Math.min(...times) * 10) / 10;
}

/** Files at once for a target this far away: the local count, scaled by how much longer a request waits there. */
export function filesInFlightFor(roundTripMs: number | undefined, cores: number): number {
  const local = conformanceMaxWorkers(cores);
  if (roundTripMs === undefined || roundTripMs < LOCAL_ROUND_TRIP_MS) return local;
  return Math.min(MAX_FILES_IN_FLIGHT, Math.max(local, Math.round(local * (1 + roundTripMs / LOCAL_REQUEST_MS))));
}
