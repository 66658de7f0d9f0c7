import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../../selfcheck/fault.js';
import { CATALOGUE, FAULTS } from '../../selfcheck/faults/catalogue.js';
import { faultList, LIST_FILE } from '../../selfcheck/faults/list.js';
import { tableFile, tableText } from '../../selfcheck/faults/lib/table.js';

const index = JSON.parse(readFileSync(new URL('../../../spec/requirements.json', import.meta.url), 'utf8')) as {
  requirements: { id: string; status: string; file: string }[];
};
const specFile = new Map(index.requirements.map((requirement) => [requirement.id, requirement.file]));
const active = new Set(index.requirements.filter((requirement) => requirement.status !== 'withdrawn').map((requirement) => requirement.id));

describe('fault catalogue', () => {
  it('has unique, upper-case ids', () => {
    const ids = FAULTS.map((fault) => fault.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Z0-9]+(-[A-Z0-9]+)+$/);
  });

  it.each(FAULTS.map((fault) => [fault.id, fault] as const))(
    '%s breaks only requirements that exist in spec/requirements.json',
    (_id, fault) => {
      expect(fault.breaks.length).toBeGreaterThan(0);
      expect(fault.breaks.filter((id) => !active.has(id))).toEqual([]);
    },
  );

  it.each(FAULTS.map((fault) => [fault.id, fault] as const))('%s is documented and applies at least one hook', (_id, fault) => {
    expect(AREAS).toContain(fault.area);
    expect(fault.title.length).toBeGreaterThan(0);
    expect(fault.description.length).toBeGreaterThan(0);
    const hooks = fault.apply();
    // A fault the proxy cannot express turns on failpoints of the reference server instead of hooking messages.
    expect(Object.values(hooks).some((hook) => typeof hook === 'function') || (hooks.failpoints?.length ?? 0) > 0).toBe(true);
  });

  it('keeps each fault in the table of the spec file of the first requirement it breaks', () => {
    const misplaced = CATALOGUE.flatMap((area) =>
      area.faults.filter((fault) => specFile.get(fault.breaks[0]!) !== area.spec).map((fault) => `${fault.id} in ${area.spec}`),
    );
    expect(misplaced).toEqual([]);
  });

  it.each(CATALOGUE.map((area) => area.name))('keeps faults/%s.json one row a line', (name) => {
    expect(readFileSync(tableFile(name), 'utf8') === tableText(name), `run npm run gen:fault-list to lay out faults/${name}.json`).toBe(
      true,
    );
  });

  it('has a current generated list (tests/selfcheck/faults/LIST.md)', () => {
    expect(
      readFileSync(LIST_FILE, 'utf8') === faultList(),
      'tests/selfcheck/faults/LIST.md is stale: run npm run gen:fault-list and commit the result',
    ).toBe(true);
  });
});
