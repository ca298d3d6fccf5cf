import dayjs from 'dayjs';

/** Server times arrive as epoch ms or ISO strings; both display the same way. */
export function formatTime(v: string | number | null | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  const d = dayjs(typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : String(v);
}
