import { describe, expect, it } from 'vitest';
import { formatIsoDate, formatIsoTime, parseIsoDate, parseIsoTime } from '../../../../reference-impl/codec/iso-time.js';

describe('ISO times and dates', () => {
  it('reads years 0000 to 0099 as written, not as 1900 to 1999', () => {
    expect(formatIsoTime(parseIsoTime('0050-01-01T00:00:00Z')!)).toBe('0050-01-01T00:00:00Z');
    expect(formatIsoTime(parseIsoTime('0000-03-01T12:30:05.25+01:00')!)).toBe('0000-03-01T11:30:05.250Z');
    expect(formatIsoDate(parseIsoDate('0099-12-31')!)).toBe('0099-12-31');
    expect(parseIsoDate('0001-01-01')).toBe(-719162);
  });

  it('refuses days a month does not have, in any year', () => {
    expect(parseIsoDate('0004-02-29')).toBeDefined();
    expect(parseIsoDate('0003-02-29')).toBeUndefined();
    expect(parseIsoTime('1999-04-31T00:00:00Z')).toBeUndefined();
  });
});
