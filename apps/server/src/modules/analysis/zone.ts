/**
 * Local days and hours of a tenant's IANA time zone. A `day` is the number of local calendar days since
 * 1970-01-01 (so day arithmetic is integer arithmetic and a date string maps to one number whatever the
 * zone); facts are bucketed with these once, when written.
 */
const DAY_MS = 86_400_000;
const SLOT_MS = 900_000; // zone offsets only change on quarter hours

interface Zone {
  fmt: Intl.DateTimeFormat;
  offsets: Map<number, number>;
}
const zones = new Map<string, Zone>();

function zoneOf(tz: string): Zone {
  let z = zones.get(tz);
  if (!z) {
    z = {
      fmt: new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
      }),
      offsets: new Map(),
    };
    zones.set(tz, z);
  }
  return z;
}

/** Whether `tz` is an IANA zone this runtime knows. */
export function validZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Local wall time minus UTC at instant `ms`, in ms. */
export function offsetAt(ms: number, tz: string): number {
  const z = zoneOf(tz);
  const slot = Math.floor(ms / SLOT_MS);
  const hit = z.offsets.get(slot);
  if (hit !== undefined) return hit;
  const p: Record<string, number> = {};
  for (const part of z.fmt.formatToParts(new Date(slot * SLOT_MS))) p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!);
  const off = wall - slot * SLOT_MS;
  if (z.offsets.size > 200_000) z.offsets.clear();
  z.offsets.set(slot, off);
  return off;
}

export interface LocalParts {
  day: number;
  hour: number;
}

export function localParts(ms: number, tz: string): LocalParts {
  const local = ms + offsetAt(ms, tz);
  const day = Math.floor(local / DAY_MS);
  return { day, hour: Math.floor((local - day * DAY_MS) / 3_600_000) };
}

/** The instant local `day` begins (00:00, or the first existing instant after it on a DST jump). */
export function dayStart(day: number, tz: string): number {
  let t = day * DAY_MS;
  for (let i = 0; i < 3; i++) t = day * DAY_MS - offsetAt(t, tz);
  // A midnight skipped by DST: the day starts at the first instant that is on it.
  while (localParts(t, tz).day < day) t += SLOT_MS;
  return t;
}

export const dayOfDate = (date: string): number =>
  Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / DAY_MS;
const dates = new Map<number, string>();
/** `YYYY-MM-DD` of a day number (memoised: a year's chart and tables ask for the same days again). */
export const dateOfDay = (day: number): string => {
  let d = dates.get(day);
  if (d === undefined) {
    if (dates.size > 20_000) dates.clear();
    d = new Date(day * DAY_MS).toISOString().slice(0, 10);
    dates.set(day, d);
  }
  return d;
};
/** ISO weekday 1 (Monday) .. 7 (Sunday) of a local day. */
export const weekdayOf = (day: number): number => ((((day + 3) % 7) + 7) % 7) + 1;

/**
 * Splits [from, to) into the local days it covers: calls `add(day, ms)` for each piece (an interval that
 * crosses midnight counts on both days).
 */
export function splitByDay(
  from: number,
  to: number,
  tz: string,
  add: (day: number, ms: number) => void,
): void {
  let t = from;
  while (t < to) {
    const { day } = localParts(t, tz);
    const next = Math.min(to, dayStart(day + 1, tz));
    add(day, next - t);
    t = next;
  }
}
