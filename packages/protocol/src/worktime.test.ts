import { describe, expect, it } from 'vitest';
import { checkRange, checkRanges, isOpenAt, localParts, toMinutes, type WorkSchedule } from './worktime.js';

describe('worktime', () => {
  it('checks ranges', () => {
    expect(toMinutes('24:00')).toBe(1440);
    expect(Number.isNaN(toMinutes('9:00'))).toBe(true);
    expect(checkRange({ start: '09:00', end: '18:00' })).toBeNull();
    expect(checkRange({ start: '18:00', end: '09:00' })).toBe('time_start_after_end');
    expect(checkRange({ start: 'x', end: '09:00' })).toBe('time_range_invalid');
    expect(
      checkRanges([
        { start: '09:00', end: '12:00' },
        { start: '12:00', end: '13:00' },
      ]),
    ).toBeNull();
    expect(
      checkRanges([
        { start: '09:00', end: '12:30' },
        { start: '12:00', end: '13:00' },
      ]),
    ).toBe('time_range_invalid');
  });

  it('decides in the schedule time zone', () => {
    const s: WorkSchedule = {
      enabled: true,
      timezone: 'America/New_York',
      weekly: [{ day: 1, ranges: [{ start: '09:00', end: '17:00' }] }],
      holidays: [],
      workdays: [],
    };
    const mondayNineNY = Date.parse('2025-09-29T13:00:00Z'); // EDT = UTC−4
    expect(localParts(mondayNineNY, 'America/New_York')).toEqual({
      date: '2025-09-29',
      day: 1,
      minutes: 540,
    });
    expect(isOpenAt(s, mondayNineNY)).toBe(true);
    expect(isOpenAt({ ...s, timezone: 'Asia/Shanghai' }, mondayNineNY)).toBe(false);
    expect(isOpenAt({ ...s, enabled: false }, Date.parse('2025-09-28T03:00:00Z'))).toBe(true);
  });
});
