import {
  DEFAULT_TIMEZONE,
  type Holiday,
  type SpecialWorkday,
  type WeekDayHours,
  type WorkSchedule,
  type WorkScheduleDto,
} from '@kefu/protocol';
import type { WorkRow } from './workservice.repository.js';

function json<T>(s: string, fallback: T): T {
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
}

export function toSchedule(r: WorkRow): WorkSchedule {
  return {
    enabled: r.enabled === 1,
    timezone: r.timezone || DEFAULT_TIMEZONE,
    weekly: json<WeekDayHours[]>(r.weekly, []),
    holidays: json<Holiday[]>(r.holidays, []),
    workdays: json<SpecialWorkday[]>(r.workdays, []),
  };
}

export const presentWork = (r: WorkRow, organname: string | null = null): WorkScheduleDto => ({
  id: r.id,
  name: r.name,
  organ: r.organ || null,
  organname: organname ?? '',
  notinwhmsg: r.notinwhmsg,
  createtime: Number(r.createtime),
  updatetime: Number(r.updatetime),
  ...toSchedule(r),
});
