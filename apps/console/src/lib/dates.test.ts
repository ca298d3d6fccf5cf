import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { datePresets, shortcutRange } from './dates';

const now = dayjs('2025-03-10T15:30:00');
const fmt = (r: [dayjs.Dayjs, dayjs.Dayjs]) => r.map((d) => d.format('YYYY-MM-DD HH:mm'));

describe('date shortcuts', () => {
  it('today, yesterday, last N days', () => {
    expect(fmt(shortcutRange('today', now))).toEqual(['2025-03-10 00:00', '2025-03-10 23:59']);
    expect(fmt(shortcutRange('yesterday', now))).toEqual(['2025-03-09 00:00', '2025-03-09 23:59']);
    expect(fmt(shortcutRange('lastWeek', now))[0]).toBe('2025-03-03 00:00');
    expect(fmt(shortcutRange('last3Months', now))[0]).toBe('2024-12-10 00:00');
  });
  it('offers all six shortcuts', () => {
    expect(datePresets((k) => k, now).map((p) => p.label)).toEqual([
      'date.today',
      'date.yesterday',
      'date.last3days',
      'date.lastWeek',
      'date.lastMonth',
      'date.last3Months',
    ]);
  });
});
