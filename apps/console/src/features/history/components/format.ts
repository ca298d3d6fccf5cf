/** A duration in ms as minutes and seconds ('' when unknown). */
export function duration(t: (k: string, o?: Record<string, unknown>) => string, ms: number | null): string {
  if (ms === null || ms < 0) return '';
  const s = Math.round(ms / 1000);
  return t('history.duration', { m: Math.floor(s / 60), s: s % 60 });
}
