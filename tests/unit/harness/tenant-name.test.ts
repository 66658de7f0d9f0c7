import { describe, expect, it } from 'vitest';
import { tenantName } from '../../harness/names.js';

describe('tenantName', () => {
  it('names a file the same way for the same run and seed, so a replay makes the same names', () => {
    const file = '/repo/tests/conformance/indexes/sets.test.ts';
    expect(tenantName('run1', file, 7)).toBe(tenantName('run1', file, 7));
    expect(tenantName('run1', file, 7)).toMatch(/^fc_run1_sets_[0-9a-f]{6}$/);
  });

  it('gives files of the same name in two folders two tenants (they may run at once)', () => {
    expect(tenantName('run1', 'tests/conformance/indexes/sets.test.ts', 7)).not.toBe(
      tenantName('run1', 'tests/conformance/core/functions/sets.test.ts', 7),
    );
  });

  it('changes with the seed', () => {
    expect(tenantName('run1', 'tests/conformance/indexes/sets.test.ts', 7)).not.toBe(
      tenantName('run1', 'tests/conformance/indexes/sets.test.ts', 8),
    );
  });
});
