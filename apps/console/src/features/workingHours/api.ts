import {
  checkRanges,
  type Holiday,
  type SpecialWorkday,
  type TimeRange,
  type WeekDayHours,
  type WorkScheduleDto,
} from '@kefu/protocol';
import { get, post, postForMsg } from '../../lib/api';

export interface ScheduleDraft {
  name: string;
  organ: string | null;
  enabled: boolean;
  timezone: string;
  notinwhmsg: string;
  weekly: WeekDayHours[];
  holidays: Holiday[];
  workdays: SpecialWorkday[];
}

export const workApi = {
  list: (signal?: AbortSignal) => get<WorkScheduleDto[]>('/workservice/list', undefined, signal),
  save: (d: ScheduleDraft) => post<WorkScheduleDto>('/workservice/save', d),
  update: (id: string, d: ScheduleDraft) => post<WorkScheduleDto>('/workservice/update', { ...d, id }),
  remove: (id: string) => postForMsg('/workservice/delete', { id }),
  toggle: (id: string, enabled: boolean) => post<WorkScheduleDto>('/workservice/switch', { id, enabled }),
};

export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

/** Seven days (Monday first), each with its ranges; days missing from the schedule are closed. */
export function fullWeek(weekly: readonly WeekDayHours[]): WeekDayHours[] {
  return WEEK_ORDER.map((day) => ({ day, ranges: weekly.find((w) => w.day === day)?.ranges ?? [] }));
}

/** The schedule as stored: only days that have ranges. */
export const compactWeek = (week: readonly WeekDayHours[]): WeekDayHours[] =>
  week.filter((d) => d.ranges.length > 0).map((d) => ({ day: d.day, ranges: d.ranges }));

export const rangesText = (ranges: readonly TimeRange[]): string =>
  ranges.map((r) => `${r.start}-${r.end}`).join(', ');

/**
 * Form-side check of a whole draft, with the same keys the server uses: a malformed or overlapping
 * range → time_range_invalid, start ≥ end → time_start_after_end, nothing at all → time_range_invalid.
 */
export function draftError(d: Pick<ScheduleDraft, 'weekly' | 'workdays'>): string | null {
  for (const day of [...d.weekly, ...d.workdays]) {
    const err = checkRanges(day.ranges);
    if (err) return err;
  }
  const any = [...d.weekly, ...d.workdays].some((x) => x.ranges.length > 0);
  return any ? null : 'time_range_invalid';
}

/** Copies Monday's ranges to Tuesday–Friday. */
export function copyMonday(week: readonly WeekDayHours[]): WeekDayHours[] {
  const monday = week.find((d) => d.day === 1)?.ranges ?? [];
  return week.map((d) => (d.day >= 2 && d.day <= 5 ? { ...d, ranges: monday.map((r) => ({ ...r })) } : d));
}
