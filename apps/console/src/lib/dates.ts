import dayjs, { type Dayjs } from 'dayjs';
import { DATE_SHORTCUTS } from '@kefu/protocol';

export type Range = [Dayjs, Dayjs];

/**
 * Spec section 9 date shortcuts. "Yesterday" is the whole of yesterday; "last N days" ends now
 * and starts at the beginning of the day N days ago.
 */
export function shortcutRange(key: (typeof DATE_SHORTCUTS)[number]['key'], now: Dayjs = dayjs()): Range {
  const s = DATE_SHORTCUTS.find((d) => d.key === key);
  const days = s?.days ?? 0;
  if (key === 'today') return [now.startOf('day'), now.endOf('day')];
  if (key === 'yesterday') {
    const y = now.subtract(1, 'day');
    return [y.startOf('day'), y.endOf('day')];
  }
  return [now.subtract(days, 'day').startOf('day'), now.endOf('day')];
}

export const datePresets = (t: (k: string) => string, now?: Dayjs) =>
  DATE_SHORTCUTS.map((d) => ({ label: t(`date.${d.key}`), value: shortcutRange(d.key, now) }));
