import { describe, expect, it } from 'vitest';
import { compactWeek, copyMonday, draftError, fullWeek, rangesText } from './api';

const r = (start: string, end: string) => ({ start, end });

describe('working-hours helpers', () => {
  it('fills and compacts the week, Monday first', () => {
    const week = fullWeek([{ day: 0, ranges: [r('10:00', '12:00')] }]);
    expect(week.map((d) => d.day)).toEqual([1, 2, 3, 4, 5, 6, 0]);
    expect(compactWeek(week)).toEqual([{ day: 0, ranges: [r('10:00', '12:00')] }]);
  });

  it('validates ranges with the server keys', () => {
    const ok = { weekly: [{ day: 1, ranges: [r('09:00', '12:00'), r('13:00', '18:00')] }], workdays: [] };
    expect(draftError(ok)).toBeNull();
    expect(draftError({ weekly: [{ day: 1, ranges: [r('18:00', '09:00')] }], workdays: [] })).toBe(
      'time_start_after_end',
    );
    expect(
      draftError({ weekly: [{ day: 1, ranges: [r('09:00', '12:00'), r('11:00', '13:00')] }], workdays: [] }),
    ).toBe('time_range_invalid');
    expect(draftError({ weekly: [{ day: 1, ranges: [r('9', '12:00')] }], workdays: [] })).toBe(
      'time_range_invalid',
    );
    expect(draftError({ weekly: [], workdays: [] })).toBe('time_range_invalid');
    expect(
      draftError({ weekly: [], workdays: [{ date: '2025-09-28', ranges: [r('10:00', '16:00')] }] }),
    ).toBeNull();
  });

  it('copies Monday to the working week and prints ranges', () => {
    const week = copyMonday(fullWeek([{ day: 1, ranges: [r('09:00', '18:00')] }]));
    expect(week.filter((d) => d.ranges.length).map((d) => d.day)).toEqual([1, 2, 3, 4, 5]);
    expect(rangesText([r('09:00', '12:00'), r('13:00', '18:00')])).toBe('09:00-12:00, 13:00-18:00');
  });
});
