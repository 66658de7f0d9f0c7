import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../../selfcheck/fault.js';
import { FAULTS } from '../../selfcheck/faults/catalogue.js';

const index = JSON.parse(readFileSync(new URL('../../../spec/requirements.json', import.meta.url), 'utf8')) as {
  requirements: { id: string; status: string }[];
};
const active = new Set(index.requirements.filter((requirement) => requirement.status !== 'withdrawn').map((requirement) => requirement.id));

describe('fault catalogue', () => {
  it('has unique, upper-case ids', () => {
    const ids = FAULTS.map((fault) => fault.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Z0-9]+(-[A-Z0-9]+)+$/);
  });

  it.each(FAULTS.map((fault) => [fault.id, fault] as const))('%s breaks only requirements that exist in spec/requirements.json', (_id, fault) => {
    expect(fault.breaks.length).toBeGreaterThan(0);
    expect(fault.breaks.filter((id) => !active.has(id))).toEqual([]);
  });

  it.each(FAULTS.map((fault) => [fault.id, fault] as const))('%s is documented and applies at least one hook or failpoint', (_id, fault) => {
    expect(AREAS).toContain(fault.area);
    expect(fault.title.length).toBeGreaterThan(0);
    expect(fault.description.length).toBeGreaterThan(0);
    const hooks = fault.apply();
    expect(Object.values(hooks).some((hook) => typeof hook === 'function') || (hooks.failpoints?.length ?? 0) > 0).toBe(true);
  });
});
