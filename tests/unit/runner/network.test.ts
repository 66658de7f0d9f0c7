import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { conformanceMaxWorkers } from '../../harness/config.js';
import { filesInFlightFor, MAX_FILES_IN_FLIGHT, measureRoundTrip } from '../../runner/network.js';

describe('files in flight', () => {
  it('stays at the local count for a local target and grows with the round trip, up to the cap', () => {
    const local = conformanceMaxWorkers(2);
    expect(filesInFlightFor(undefined, 2)).toBe(local);
    expect(filesInFlightFor(0.4, 2)).toBe(local);
    const at30 = filesInFlightFor(30, 2);
    const at100 = filesInFlightFor(100, 2);
    expect(at30).toBeGreaterThan(local);
    expect(at100).toBeGreaterThanOrEqual(at30);
    expect(at100).toBeLessThanOrEqual(MAX_FILES_IN_FLIGHT);
  });

  it("on 2 cores runs 14 files at a 30 ms round trip and 32 at 100 ms: the suite's chains of sequential requests, about 4,000, at ~12 ms of local time per request, then take no longer than the local run", () => {
    expect(filesInFlightFor(30, 2)).toBe(14);
    expect(filesInFlightFor(100, 2)).toBe(32);
    // The waiting the round trips add, spread over the files in flight, next to the ~84 s of file time the local
    // run spreads over its 4 files (21 s).
    for (const rtt of [30, 100]) expect((84 + (4_000 * rtt) / 1000) / filesInFlightFor(rtt, 2)).toBeLessThanOrEqual(21);
  });

  it('scales from the local count of a larger machine, and stops at the cap', () => {
    expect(filesInFlightFor(30, 8)).toBe(Math.min(MAX_FILES_IN_FLIGHT, Math.round(conformanceMaxWorkers(8) * 3.5)));
    expect(filesInFlightFor(150, 2)).toBe(MAX_FILES_IN_FLIGHT);
    expect(filesInFlightFor(100, 8)).toBe(MAX_FILES_IN_FLIGHT);
    expect(filesInFlightFor(10, 2)).toBe(7);
  });

  it('measures the round trip of GET /ping, and gives up on a target that does not answer', async () => {
    const delayMs = 40;
    const server = http.createServer((req, res) => {
      req.resume();
      if (req.url === '/ping') setTimeout(() => res.end('{}'), delayMs);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const rtt = await measureRoundTrip(url, 2_000);
      expect(rtt).toBeGreaterThanOrEqual(delayMs - 1);
      expect(await measureRoundTrip(`${url}/nowhere`, 300)).toBeUndefined();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
