import { FIGURE_FORMAT, type Figure } from '@kefu/protocol';

type T = (key: string, opts?: Record<string, unknown>) => string;

/** A duration in ms as the screens show it: 42.5s, 3m 05s, 2h 07m. */
export function formatDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** A figure's value for display ('–' when there is nothing to average or divide). */
export function formatFigure(fig: Figure, v: number | null | undefined): string {
  if (v === null || v === undefined) return '–';
  const fmt = FIGURE_FORMAT[fig];
  if (fmt === 'ms') return formatDuration(v);
  if (fmt === 'rate') return `${(v * 100).toFixed(1)}%`;
  return v.toLocaleString();
}

/** Change against the previous period, as "+12.5%" (null when there is no base). */
export function delta(now: number | null | undefined, before: number | null | undefined): number | null {
  if (now === null || now === undefined || before === null || before === undefined || before === 0)
    return null;
  return (now - before) / Math.abs(before);
}

/** The label of a row key of a dimension: names for ids, texts for channels, engines, hours, weekdays. */
export function rowLabel(t: T, dim: string, key: string, name: string): string {
  if (key === '~other') return t('analysis.other');
  if (dim === 'channel') return t(`channel.name.${key}`);
  if (dim === 'engine') return key ? t(`analysis.engine.${key}`) : t('analysis.engine.none');
  if (dim === 'hour') return t('analysis.hourLabel', { hour: key });
  if (dim === 'weekday') return t(`analysis.weekday.${key}`);
  if (dim === 'agentday') return name || t('analysis.unknown');
  return name || key || (dim === 'organ' || dim === 'agent' ? t('analysis.none') : t('analysis.unknown'));
}

/** The x-axis label of a bucket: MM-DD for days, hours and weekdays as texts. */
export function bucketLabel(t: T, axis: 'day' | 'hour' | 'weekday', b: string): string {
  if (axis === 'hour') return t('analysis.hourLabel', { hour: b });
  if (axis === 'weekday') return t(`analysis.weekday.${b}`);
  return b.slice(5);
}
