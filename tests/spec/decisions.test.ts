// Every decision is either cited by a requirement or says why the suite does not test it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../spec/build-index.js';

const decisionsText = readFileSync(new URL('../../spec/decisions.md', import.meta.url), 'utf8');

/** The body of one decision: from its heading to the next level-2 heading. */
function decisionBody(id: string): string {
  const start = decisionsText.indexOf(`## ${id} ·`);
  const next = decisionsText.indexOf('\n## ', start + 1);
  return decisionsText.slice(start, next === -1 ? undefined : next);
}

describe('spec/decisions.md', () => {
  const index = buildIndex();
  const cited = new Set(index.requirements.flatMap((r) => r.source.flatMap((s) => s.match(/DEC-\d+/g) ?? [])));

  it('cites every decision from a requirement, or the decision says "Not tested"', () => {
    const orphans = index.decisions.filter((d) => !cited.has(d.id) && !/Not tested/.test(decisionBody(d.id))).map((d) => d.id);
    expect(orphans, 'decisions neither cited nor marked "Not tested"').toEqual([]);
  });

  it('gives every decision its Gap, Decision, Reference server and Suite parts', () => {
    for (const d of index.decisions) {
      const body = decisionBody(d.id);
      for (const part of ['**Gap.**', '**Decision.**', '**Reference server.**', '**Suite.**']) {
        expect(body.includes(part), `${d.id} lacks ${part}`).toBe(true);
      }
    }
  });

  it('records a decision for every "not shown" item of the service description', () => {
    const notShown = decisionsText.match(/not shown/g) ?? [];
    // The SD has fourteen "not shown" sentences; each is quoted in the decision that answers it.
    expect(notShown.length).toBeGreaterThanOrEqual(14);
  });
});
