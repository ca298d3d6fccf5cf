import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render as rtlRender, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { QualityLabelDto, QualityScorecardDto } from '@kefu/protocol';
import { emptyDraft, groupItems, previewScore, toggleCitation } from './model';
import { Scorecard } from './components/Scorecard';
import { Findings, decisionsOf } from './components/Findings';
import { QualityTranscript } from './components/QualityTranscript';
import { message } from '../dialogue/model/fixtures';

afterEach(cleanup);

/** The transcript's message lines read the tenant's masking rules through react-query. */
const render = (ui: ReactElement) =>
  rtlRender(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } })}
    >
      {ui}
    </QueryClientProvider>,
  );

const item = (id: string, over: Partial<QualityLabelDto>): QualityLabelDto => ({
  id,
  typeid: 't',
  groupname: '',
  name: id,
  description: '',
  kind: 'deduct',
  points: 10,
  fatal: false,
  sort: 0,
  createtime: 0,
  updatetime: 0,
  ...over,
});
const card: QualityScorecardDto = {
  typeid: 't',
  versionid: 'v1',
  version: 1,
  name: '标准',
  base: 100,
  passmark: 80,
  items: [
    item('rude', { groupname: '服务态度', points: 30, sort: 1 }),
    item('leak', { groupname: '合规', points: 50, fatal: true, sort: 2 }),
    item('warm', { groupname: '服务态度', kind: 'add', points: 5, sort: 3 }),
  ],
};

describe('quality scoring model', () => {
  it('scores base − deductions + bonuses, fails below the pass mark and on any fatal item', () => {
    const d = emptyDraft(card, [{ labelid: 'rude', score: 15, messageids: ['m1'], comment: '语气生硬' }]);
    expect(d.rude).toEqual({ labelid: 'rude', score: 15, messageids: ['m1'], comment: '语气生硬' });
    expect(d.leak?.score).toBe(0);
    expect(previewScore(card, d)).toEqual({ score: 85, pass: true, fatal: false });
    d.warm = { ...d.warm!, score: 5 };
    expect(previewScore(card, d).score).toBe(90);
    d.rude = { ...d.rude!, score: 30 };
    expect(previewScore(card, d)).toEqual({ score: 75, pass: false, fatal: false });
    const fatal = { ...d, rude: { ...d.rude, score: 0 }, leak: { ...d.leak!, score: 1 } };
    expect(previewScore(card, fatal)).toEqual({ score: 104, pass: false, fatal: true });
    // Out-of-range drafts count as their item's range allows; never below 0.
    const over = { ...d, leak: { ...d.leak!, score: 999 }, rude: { ...d.rude, score: 999 } };
    expect(previewScore(card, over).score).toBe(25);
  });

  it('cites a message once per click and withdraws it on the next', () => {
    let d = emptyDraft(card, []);
    d = toggleCitation(d, 'rude', 'm7');
    d = toggleCitation(d, 'rude', 'm9');
    expect(d.rude?.messageids).toEqual(['m7', 'm9']);
    d = toggleCitation(d, 'rude', 'm7');
    expect(d.rude?.messageids).toEqual(['m9']);
    expect(toggleCitation(d, 'nope', 'm1')).toBe(d);
  });

  it('groups items under their headings in card order', () => {
    expect(groupItems(card.items).map(([g, l]) => [g, l.map((i) => i.id)])).toEqual([
      ['服务态度', ['rude', 'warm']],
      ['合规', ['leak']],
    ]);
  });
});

describe('Scorecard', () => {
  it('chooses an item by clicking it, keeps scores in range and shows its citations', () => {
    const onActive = vi.fn();
    const onChange = vi.fn();
    const d = toggleCitation(emptyDraft(card, []), 'rude', 'm1');
    render(
      <Scorecard
        card={card}
        draft={d}
        onChange={onChange}
        active={null}
        onActive={onActive}
        msgLabel={(m) => `#${m}`}
      />,
    );
    fireEvent.click(screen.getByTestId('qc-item-row-rude'));
    expect(onActive).toHaveBeenCalledWith('rude');
    expect(screen.getByTestId('qc-cited-rude').textContent).toBe('#m1');
    const el = screen.getByTestId('qc-score-leak');
    const input = el.tagName === 'INPUT' ? el : el.querySelector('input')!;
    fireEvent.change(input, { target: { value: '70' } });
    fireEvent.blur(input);
    const last = onChange.mock.calls.at(-1)?.[0] as ReturnType<typeof emptyDraft>;
    expect(last.leak?.score).toBe(50);
  });
});

describe('AI suggestions and automatic findings', () => {
  it('shows a suggestion beside its item (never as the score) and accepts it on request', () => {
    const onAccept = vi.fn();
    const s = { labelid: 'rude', points: 7, quote: '你自己查物流吧', messageid: 'a1' };
    render(
      <Scorecard
        card={card}
        draft={emptyDraft(card, [])}
        onChange={vi.fn()}
        active={null}
        onActive={vi.fn()}
        msgLabel={(m) => `#${m}`}
        suggestions={new Map([['rude', s]])}
        onAccept={onAccept}
      />,
    );
    expect(screen.getByTestId('qc-ai-rude').textContent).toContain('你自己查物流吧');
    expect(screen.queryByTestId('qc-ai-leak')).toBeNull();
    const score = screen.getByTestId('qc-score-rude');
    expect((score.tagName === 'INPUT' ? score : score.querySelector('input')!).getAttribute('value')).toBe(
      '0',
    );
    fireEvent.click(screen.getByTestId('qc-ai-accept-rude'));
    expect(onAccept).toHaveBeenCalledWith(s);
  });

  it('confirms a finding, and shows stored decisions apart from the automatic points', () => {
    const onDecide = vi.fn();
    const f = (id: string, rule: 'greeting' | 'closing') => ({
      id,
      agentserviceid: 's1',
      rule,
      messageids: [],
      value: 0,
      detail: '',
      points: 1,
      createtime: 0,
    });
    const saved = [
      {
        findingid: 'f2',
        rule: 'closing' as const,
        decision: 'overridden' as const,
        autopoints: 1,
        points: 0,
        reason: '电话里已说',
        userid: 'u',
        username: '质检一',
        createtime: 0,
      },
    ];
    render(
      <Findings
        findings={[f('f1', 'greeting'), f('f2', 'closing')]}
        msgLabel={(m) => m}
        onShow={vi.fn()}
        canAdopt={false}
        saved={saved}
        decisions={decisionsOf(saved)}
        onDecide={onDecide}
      />,
    );
    expect(screen.getByTestId('qc-finding-decision-closing').getAttribute('data-decision')).toBe(
      'overridden',
    );
    expect(screen.getByTestId('qc-finding-decision-greeting').getAttribute('data-decision')).toBeNull();
    fireEvent.click(screen.getByTestId('qc-finding-confirm-greeting'));
    expect(onDecide).toHaveBeenCalledWith({ findingid: 'f1', decision: 'confirmed', reason: '' });
  });
});

describe('QualityTranscript', () => {
  const first = {
    agentserviceid: 's1',
    createtime: 0,
    endtime: 1,
    agentusername: '坐席一',
    more: false,
    messages: [
      message({ id: 'q1', seq: 1, message: '快递还没到' }),
      message({ id: 'a1', seq: 2, calltype: 'out', userid: 'agent', message: '你自己查物流吧' }),
    ],
  };

  it('hands the clicked message to the chosen item and outlines the cited ones', () => {
    const onPick = vi.fn();
    const { container } = render(
      <QualityTranscript
        inspectionid="i1"
        first={first}
        cited={new Set(['q1'])}
        active={new Set(['a1'])}
        onPick={onPick}
      />,
    );
    fireEvent.click(screen.getByText('你自己查物流吧'));
    expect(onPick).toHaveBeenCalledWith('a1');
    const css = container.querySelector('style')?.textContent ?? '';
    expect(css).toContain('[data-seq="1"]');
    expect(css).toContain('[data-seq="2"]');
    expect(screen.getByTestId('qc-transcript').getAttribute('data-picking')).toBe('on');
  });

  it('cites nothing when no item is chosen', () => {
    render(<QualityTranscript inspectionid="i1" first={first} cited={new Set()} active={new Set()} />);
    expect(screen.getByTestId('qc-transcript').getAttribute('data-picking')).toBe('off');
    expect(() => fireEvent.click(screen.getByText('快递还没到'))).not.toThrow();
  });
});
