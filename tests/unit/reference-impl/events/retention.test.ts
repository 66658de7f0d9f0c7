import { describe, expect, it } from 'vitest';
import { longestRetentionMicros, MINIMUM_RETENTION_MICROS, nowMicros, retentionMicros, startBeyondRetention } from '../../../../reference-impl/events/retention.js';
import { StoreFixture } from './store-fixture.js';

const DAY = 86_400_000_000n;

describe('retention', () => {
  it('is history_days, or 15 minutes when it is 0 or unset', () => {
    const fixture = new StoreFixture();
    const ts = fixture.commit([{ collection: 'Unset' }, { collection: 'Zero', historyDays: 0n }, { collection: 'Two', historyDays: 2n }]);
    expect(retentionMicros(fixture.store, '0', 'Unset', ts)).toBe(MINIMUM_RETENTION_MICROS);
    expect(retentionMicros(fixture.store, '0', 'Zero', ts)).toBe(MINIMUM_RETENTION_MICROS);
    expect(retentionMicros(fixture.store, '0', 'Two', ts)).toBe(2n * DAY);
  });

  it('refuses a start just beyond the window and accepts one just inside it', () => {
    const fixture = new StoreFixture();
    fixture.commit([{ collection: 'C' }]);
    const now = nowMicros();
    expect(startBeyondRetention(fixture.store, '0', 'C', now - MINIMUM_RETENTION_MICROS - 1_000_000n)).toBe(true);
    expect(startBeyondRetention(fixture.store, '0', 'C', now - MINIMUM_RETENTION_MICROS + 5_000_000n)).toBe(false);
  });

  it('the longest retention of a database counts its live collections only', () => {
    const fixture = new StoreFixture();
    fixture.commit([{ collection: 'A', historyDays: 3n }, { collection: 'B', historyDays: 1n }]);
    expect(longestRetentionMicros(fixture.store, '0')).toBe(3n * DAY);
    const store = fixture.store;
    const before = store.getDocument('0', 'collections', 'A', store.lastCommitTs)!;
    const ts = store.lastCommitTs + 1n;
    store.commit([{ ts, database: '0', writes: [{ collection: 'collections', id: 'A', action: 'delete', before, after: { ts, action: 'delete', fields: {}, hidden: {} } }] }]);
    expect(longestRetentionMicros(store, '0')).toBe(DAY);
    expect(longestRetentionMicros(store, '7')).toBe(MINIMUM_RETENTION_MICROS);
  });
});
