// The fast self-check in `npm test`: a small sample of the fault catalogue and two hostile servers, each run
// against only the tests of one requirement so the whole sample stays near a minute on two cores. The full
// catalogue is `npm run selfcheck`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fault } from './fault.js';
import { FAULTS } from './faults/catalogue.js';
import { HOSTILE_SERVERS } from './hostile/catalogue.js';
import { startReferenceServer, type RunningReferenceServer } from './reference-server.js';
import { firstBrokenRequirement, runSelfcheck } from './selfcheck.js';
import type { SelfcheckReport } from './selfcheck-report.js';

/** One fault per area group, each caught by the tests of the first requirement it breaks. */
const SAMPLE_FAULTS = ['STATUS-CREATE-200', 'AUTH-LOGOUT-ONE-AS-ALL', 'PAGE-AFTER-EXCLUSIVE', 'FEED-PAGE-SIZE-IGNORED'];
const SAMPLE_HOSTILE = ['INVALID-JSON', 'ALWAYS-500'];
/** The test of this requirement sends one write and reads its status: enough to meet a hostile server. */
const HOSTILE_REQUIREMENT = 'PROTO-STATUS-002';

function pick<T extends { id: string }>(all: readonly T[], ids: readonly string[]): T[] {
  return ids.map((id) => {
    const found = all.find((item) => item.id === id);
    if (found === undefined) throw new Error(`${id} is not in the catalogue`);
    return found;
  });
}

describe('self-check (fast sample)', () => {
  let reference: RunningReferenceServer;
  let report: SelfcheckReport;

  beforeAll(async () => {
    reference = await startReferenceServer();
    report = await runSelfcheck({
      reference,
      faults: pick<Fault>(FAULTS, SAMPLE_FAULTS),
      hostile: pick(HOSTILE_SERVERS, SAMPLE_HOSTILE),
      fast: true,
      scopeFor: firstBrokenRequirement,
      hostileScope: { requirement: HOSTILE_REQUIREMENT },
      jobs: 2,
      faultBoundMs: 120_000,
      hostileBoundMs: 60_000,
    });
  });

  afterAll(async () => {
    await reference?.close();
  });

  it.each(SAMPLE_FAULTS)('the suite catches fault %s', (id) => {
    const result = report.faults.find((fault) => fault.id === id);
    expect(result?.problem, `${id}: ${result?.problem}`).toBeUndefined();
    expect(result?.caught).toBe(true);
  });

  it.each(SAMPLE_HOSTILE)('the suite survives hostile server %s', (id) => {
    const result = report.hostile.find((server) => server.id === id);
    expect(result?.problem, `${id}: ${result?.problem}`).toBeUndefined();
    expect(result?.survived).toBe(true);
  });
});
