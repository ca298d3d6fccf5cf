import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import dayjs from 'dayjs';
import { toFilter } from './components/HistoryFilters';
import { Highlight } from './components/Highlight';
import { duration } from './components/format';

afterEach(cleanup);

describe('history screen pieces', () => {
  it('turns the filter form into the list query: times as epoch ms, blanks dropped, ranges kept', () => {
    const a = dayjs('2026-11-01T00:00:00');
    const b = dayjs('2026-11-24T23:59:59');
    expect(
      toFilter({
        range: [a, b],
        keyword: '  退款 ',
        visitor: '   ',
        waitMin: 0,
        waitMax: null,
        serveMax: 60,
        leavemsg: false,
        satislevel: 0,
      }),
    ).toEqual({
      begin: a.valueOf(),
      end: b.valueOf(),
      keyword: '退款',
      visitor: undefined,
      agentno: undefined,
      organ: undefined,
      channel: undefined,
      appid: undefined,
      tagid: undefined,
      topicid: undefined,
      satislevel: 0,
      endby: undefined,
      waitMin: 0,
      waitMax: undefined,
      serveMin: undefined,
      serveMax: 60,
      leavemsg: false,
      ai: undefined,
    });
  });

  it('marks every word of the keyword in the matching line, case-blind, special characters literal', () => {
    const { container } = render(<Highlight text="iPhone 退款了吗？(a+b)" words="iphone 退款 a+b" />);
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual([
      'iPhone',
      '退款',
      'a',
      'b',
    ]);
    const plain = render(<Highlight text="没有关键词" words="，，" />);
    expect(plain.container.querySelector('mark')).toBeNull();
  });

  it('shows durations in minutes and seconds', () => {
    const t = (_k: string, o?: Record<string, unknown>) => `${String(o?.m)}:${String(o?.s)}`;
    expect(duration(t, 125_400)).toBe('2:5');
    expect(duration(t, null)).toBe('');
  });
});
