/**
 * Working-hours rules shared by the server (the engine's new-chat gate) and the console (form checks).
 * Times are "HH:mm" (end may be "24:00"); a range is [start, end) and must have start < end.
 */
export interface TimeRange {
  start: string;
  end: string;
}

export interface WeekDayHours {
  /** 0 = Sunday … 6 = Saturday. */
  day: number;
  ranges: TimeRange[];
}

export interface Holiday {
  /** YYYY-MM-DD */
  date: string;
  name: string;
}

export interface SpecialWorkday {
  date: string;
  ranges: TimeRange[];
}

export interface WorkSchedule {
  enabled: boolean;
  timezone: string;
  weekly: WeekDayHours[];
  holidays: Holiday[];
  workdays: SpecialWorkday[];
}

export const HHMM_RE = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
export const DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
export const DEFAULT_TIMEZONE = 'Asia/Shanghai';

/** Minutes since midnight of "HH:mm", or NaN when malformed. */
export function toMinutes(hhmm: string): number {
  if (!HHMM_RE.test(hhmm)) return Number.NaN;
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

export type TimeRangeError = 'time_range_invalid' | 'time_start_after_end';

/** One range: malformed → time_range_invalid; start ≥ end → time_start_after_end. */
export function checkRange(r: TimeRange): TimeRangeError | null {
  const s = toMinutes(r.start);
  const e = toMinutes(r.end);
  if (Number.isNaN(s) || Number.isNaN(e)) return 'time_range_invalid';
  if (s >= e) return 'time_start_after_end';
  return null;
}

/** The ranges of one day: each valid, and no two overlapping (time_range_invalid). */
export function checkRanges(ranges: readonly TimeRange[]): TimeRangeError | null {
  for (const r of ranges) {
    const err = checkRange(r);
    if (err) return err;
  }
  const sorted = [...ranges].sort((a, b) => toMinutes(a.start) - toMinutes(b.start));
  for (let i = 1; i < sorted.length; i++) {
    if (toMinutes(sorted[i].start) < toMinutes(sorted[i - 1].end)) return 'time_range_invalid';
  }
  return null;
}

export function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Local date (YYYY-MM-DD), weekday (0–6) and minutes of `at` in the time zone. */
export function localParts(at: number, timezone: string): { date: string; day: number; minutes: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    weekday: 'short',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? '';
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    day: WEEKDAYS.indexOf(get('weekday')),
    minutes: Number(get('hour')) * 60 + Number(get('minute')),
  };
}

const within = (ranges: readonly TimeRange[], minutes: number) =>
  ranges.some((r) => minutes >= toMinutes(r.start) && minutes < toMinutes(r.end));

/**
 * Open at `at`? A disabled schedule is always open. A special working day uses its own ranges;
 * otherwise a holiday is closed all day; otherwise the weekday's ranges apply (none = closed).
 */
export function isOpenAt(s: WorkSchedule, at: number): boolean {
  if (!s.enabled) return true;
  const { date, day, minutes } = localParts(at, s.timezone);
  const special = s.workdays.find((w) => w.date === date);
  if (special) return within(special.ranges, minutes);
  if (s.holidays.some((h) => h.date === date)) return false;
  return within(s.weekly.find((w) => w.day === day)?.ranges ?? [], minutes);
}
