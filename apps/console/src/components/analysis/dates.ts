/** Date presets of the analysis screens, in the tenant's time zone (YYYY-MM-DD, both ends included). */
export type Preset = 'today' | 'yesterday' | 'last7' | 'last30' | 'month' | 'custom';
export const PRESETS: readonly Exclude<Preset, 'custom'>[] = [
  'today',
  'yesterday',
  'last7',
  'last30',
  'month',
];

const DAY = 86_400_000;
const dayNum = (d: string) => Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10)) / DAY;
const dateOf = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);

/** Today's date in a time zone. */
export function todayIn(timezone: string, now = Date.now()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  } catch {
    return new Date(now).toISOString().slice(0, 10);
  }
}

export function presetRange(p: Exclude<Preset, 'custom'>, today: string): [string, string] {
  const n = dayNum(today);
  switch (p) {
    case 'today':
      return [today, today];
    case 'yesterday':
      return [dateOf(n - 1), dateOf(n - 1)];
    case 'last7':
      return [dateOf(n - 6), today];
    case 'last30':
      return [dateOf(n - 29), today];
    case 'month':
      return [`${today.slice(0, 8)}01`, today];
  }
}

/** The previous period of the same length, as the server answers it. */
export function previousOf(begin: string, end: string): [string, string] {
  const len = dayNum(end) - dayNum(begin) + 1;
  return [dateOf(dayNum(begin) - len), dateOf(dayNum(begin) - 1)];
}
