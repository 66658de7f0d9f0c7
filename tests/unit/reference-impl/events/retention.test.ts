import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MIN_RETENTION_MICROS,
  longestRetentionMicros,
  nowMicros,
  retentionMicros,
  startBeyondRetention,
} from '../../../../reference-impl/events/retention.js';
import { StoreFixture } from './store-fixture.js';

const DAY = 86_400_000_000n;
const MIN = DEFAULT_MIN_RETENTION_MICROS;

describe('retention', () => {
  it('is history_days plus the minimum window, which is all there is when history_days is 0 or unset', () => {
    const fixture = new StoreFixture();
    const ts = fixture.commit([{ collection: 'Unset' }, { collection: 'Zero', historyDays: 0n }, { collection: 'Two', historyDays: 2n }]);
    expect(retentionMicros(fixture.store, '0', 'Unset', ts, MIN)).toBe(MIN);
    expect(retentionMicros(fixture.store, '0', 'Zero', ts, MIN)).toBe(MIN);
    expect(retentionMicros(fixture.store, '0', 'Two', ts, MIN)).toBe(2n * DAY + MIN);
    expect(retentionMicros(fixture.store, '0', 'Zero', ts, 5_000_000n)).toBe(5_000_000n);
  });

  it('refuses a start just beyond the window and accepts one just inside it', () => {
    const fixture = new StoreFixture();
    fixture.commit([{ collection: 'C' }]);
    const now = nowMicros();
    expect(startBeyondRetention(fixture.store, '0', 'C', now - MIN - 1_000_000n, MIN)).toBe(true);
    expect(startBeyondRetention(fixture.store, '0', 'C', now - MIN + 5_000_000n, MIN)).toBe(false);
    expect(startBeyondRetention(fixture.store, '0', 'C', now - 3_000_000n, 2_000_000n)).toBe(true);
  });

  it('the longest retention of a database counts its live collections only', () => {
    const fixture = new StoreFixture();
    fixture.commit([
      { collection: 'A', historyDays: 3n },
      { collection: 'B', historyDays: 1n },
    ]);
    expect(longestRetentionMicros(fixture.store, '0', MIN)).toBe(3n * DAY + MIN);
    const store = fixture.store;
    const before = store.getDocument('0', 'collections', 'A', store.lastCommitTs)!;
    const ts = store.lastCommitTs + 1n;
    store.commit([
      {
        ts,
        database: '0',
        writes: [{ collection: 'collections', id: 'A', action: 'delete', before, after: { ts, action: 'delete', fields: {}, hidden: {} } }],
      },
    ]);
    expect(longestRetentionMicros(store, '0', MIN)).toBe(DAY + MIN);
    expect(longestRetentionMicros(store, '7', MIN)).toBe(MIN);
  });
});
