import { describe, expect, it } from 'vitest';
import { delta, formatDuration, formatFigure, rowLabel } from './format';
import { presetRange, previousOf, todayIn } from './dates';

const t = (key: string, o?: Record<string, unknown>) => (o ? `${key}:${JSON.stringify(o)}` : key);

describe('analysis screen helpers', () => {
  it('date presets in the tenant zone and the previous period the server compares with', () => {
    expect(todayIn('Asia/Shanghai', Date.UTC(2026, 10, 24, 17, 0))).toBe('2026-11-25');
    expect(todayIn('America/New_York', Date.UTC(2026, 10, 24, 3, 0))).toBe('2026-11-23');
    expect(presetRange('today', '2026-03-01')).toEqual(['2026-03-01', '2026-03-01']);
    expect(presetRange('yesterday', '2026-03-01')).toEqual(['2026-02-28', '2026-02-28']);
    expect(presetRange('last7', '2026-03-01')).toEqual(['2026-02-23', '2026-03-01']);
    expect(presetRange('last30', '2026-03-01')).toEqual(['2026-01-31', '2026-03-01']);
    expect(presetRange('month', '2026-03-17')).toEqual(['2026-03-01', '2026-03-17']);
    expect(previousOf('2026-03-05', '2026-03-11')).toEqual(['2026-02-26', '2026-03-04']);
  });

  it('formats durations, rates, counts and row labels', () => {
    expect(formatDuration(4_250)).toBe('4.3s');
    expect(formatDuration(185_000)).toBe('3m 05s');
    expect(formatDuration(7_620_000)).toBe('2h 07m');
    expect(formatFigure('satisfactionRate', 0.375)).toBe('37.5%');
    expect(formatFigure('firstResponse', null)).toBe('–');
    expect(formatFigure('conversations', 1234)).toBe((1234).toLocaleString());
    expect(delta(12, 10)).toBeCloseTo(0.2);
    expect(delta(12, 0)).toBeNull();
    expect(rowLabel(t, 'channel', 'webim', '')).toBe('channel.name.webim');
    expect(rowLabel(t, 'engine', '', '')).toBe('analysis.engine.none');
    expect(rowLabel(t, 'hour', '7', '')).toBe('analysis.hourLabel:{"hour":"7"}');
    expect(rowLabel(t, 'agent', '', '')).toBe('analysis.none');
    expect(rowLabel(t, 'browser', '', '')).toBe('analysis.unknown');
    expect(rowLabel(t, 'organ', 'o1', '售前')).toBe('售前');
    expect(rowLabel(t, 'tag', '~other', '')).toBe('analysis.other');
  });
});
