import { describe, expect, it, vi } from 'vitest';
import type { MessageDto } from '@kefu/protocol';
import {
  addPending,
  applyRead,
  applyWithdraw,
  canWithdraw,
  failPending,
  highestSeq,
  isVoiceFile,
  lastmsgSummary,
  lowestSeq,
  mergeMessages,
  messageSummary,
  randomId,
  throttle,
  type ChatMessage,
} from './messages';
import { message } from './fixtures';

const m = (id: string, seq: number, over: Partial<MessageDto> = {}): ChatMessage =>
  message({
    id,
    agentserviceid: 's',
    usession: 'v',
    seq,
    clientId: `c-${id}-000`,
    userid: 'v',
    username: 'Guest',
    message: id,
    puremsg: id,
    tokenum: 0,
    createtime: 1_000,
    ...over,
  });

const labels = { image: '[图片]', file: '[文件]', voice: '[语音]', video: '[视频]', emoticon: '[表情]' };

describe('messages', () => {
  it('merges by id in seq order without duplicates', () => {
    const list = mergeMessages([m('b', 2), m('d', 4)], [m('a', 1), m('c', 3), m('b', 2, { message: 'B' })]);
    expect(list.map((x) => x.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(list[1].message).toBe('B');
    expect(lowestSeq(list)).toBe(1);
    expect(highestSeq(list)).toBe(4);
  });

  it('a pending message waits at the end and gives way to its stored copy', () => {
    let list = mergeMessages([], [m('a', 1)]);
    list = addPending(list, m('tmp', 0, { clientId: 'mine-0001', calltype: 'out', userid: 'me' }));
    list = mergeMessages(list, [m('b', 2)]);
    expect(list.map((x) => [x.id, x.pending])).toEqual([
      ['a', undefined],
      ['b', undefined],
      ['tmp', 'sending'],
    ]);
    expect(failPending(list, 'mine-0001')[2].pending).toBe('failed');
    list = mergeMessages(list, [m('c', 3, { clientId: 'mine-0001', calltype: 'out' })]);
    expect(list.map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(list.every((x) => !x.pending)).toBe(true);
  });

  it('withdraw blanks the message; read marks own messages up to seq', () => {
    const list = [
      m('a', 1, { calltype: 'out' }),
      m('b', 2, { calltype: 'in' }),
      m('c', 3, { calltype: 'out' }),
    ];
    expect(applyWithdraw(list, 'a')[0]).toMatchObject({ withdrawn: true, datastatus: 1, message: '' });
    expect(applyRead(list, 2).map((x) => x.readstatus)).toEqual([1, 0, 0]);
  });

  it('only own stored messages younger than 2 minutes can be withdrawn', () => {
    const own = m('a', 1, { calltype: 'out', userid: 'me', createtime: 0 });
    expect(canWithdraw(own, 'me', 120_000)).toBe(true);
    expect(canWithdraw(own, 'me', 120_001)).toBe(false);
    expect(canWithdraw(own, 'other', 1)).toBe(false);
    expect(canWithdraw({ ...own, pending: 'sending' }, 'me', 1)).toBe(false);
    expect(canWithdraw(m('b', 2, { createtime: 0 }), 'me', 1)).toBe(false);
  });

  it('summaries use placeholders for media', () => {
    expect(messageSummary(m('a', 1, { msgtype: 'image', message: 'x.png' }), labels, 'withdrawn')).toBe(
      '[图片]',
    );
    expect(messageSummary(m('a', 1, { msgtype: 'voice' }), labels, 'w')).toBe('[语音]');
    expect(messageSummary(m('a', 1, { msgtype: 'emoticon' }), labels, 'w')).toBe('[表情]');
    expect(messageSummary(m('a', 1, { message: 'hi\n there' }), labels, 'w')).toBe('hi there');
    expect(messageSummary(m('a', 1, { withdrawn: true }), labels, 'w')).toBe('w');
    expect(lastmsgSummary('[file]', labels)).toBe('[文件]');
    expect(lastmsgSummary('[video]', labels)).toBe('[视频]');
    expect(lastmsgSummary('hello', labels)).toBe('hello');
  });

  it('voice files must be mp3, mpeg or ogg', () => {
    expect(isVoiceFile({ name: 'a.mp3', type: 'audio/mpeg' })).toBe(true);
    expect(isVoiceFile({ name: 'a.ogg', type: 'audio/ogg' })).toBe(true);
    expect(isVoiceFile({ name: 'a.wav', type: 'audio/wav' })).toBe(false);
    expect(isVoiceFile({ name: 'a.mp3', type: '' })).toBe(true);
    expect(isVoiceFile({ name: 'a.m4a', type: '' })).toBe(false);
  });

  it('random ids have the asked length', () => {
    expect(randomId()).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(randomId(12)).toHaveLength(12);
    expect(randomId()).not.toBe(randomId());
  });

  it('throttle lets one call through per window', () => {
    let t = 0;
    const gate = throttle(1_300, () => t);
    const fn = vi.fn();
    expect(gate(fn)).toBe(true);
    t = 1_299;
    expect(gate(fn)).toBe(false);
    t = 1_300;
    expect(gate(fn)).toBe(true);
    expect(fn).toHaveBeenCalledTimes(2);
  });
});
