import { describe, expect, it } from 'vitest';
import type { MessageDto, MonitorAgentDto, MonitorChatDto, MonitorDesktopDto } from '@kefu/protocol';
import { mergeMessages } from '../dialogue/model/messages';
import { chatEntry } from '../dialogue/model/fixtures';
import { applyUpdate, chatList, fromDesktop, liveTimeouts, wallboard, withWaiting } from './model';

/** A monitor row: the chat entry of conversation `id` in group g1, served by a1. */
const chat = (id: string, over: Partial<MonitorChatDto> = {}): MonitorChatDto => ({
  ...chatEntry(`au-${id}`, { agentserviceid: id, username: id, agentno: 'a1' }),
  organ: 'g1',
  organname: 'G1',
  agentname: 'A1',
  waitreply: 0,
  timeout: 0,
  foragent: 0,
  ...over,
});

const agent = (userid: string, organs: string[], over: Partial<MonitorAgentDto> = {}): MonitorAgentDto => ({
  userid,
  username: userid,
  uname: userid,
  organ: organs[0] ?? null,
  organs,
  status: 'ready',
  users: 0,
  maxusers: 5,
  statetime: 0,
  ...over,
});

const desktop = (chats: MonitorChatDto[], agents: MonitorAgentDto[] = []): MonitorDesktopDto => ({
  scope: 'all',
  organ: null,
  skillList: [
    { id: 'g1', name: 'G1', parentid: null, agentList: [], serviceNum: 0, inqueneNum: 0 },
    { id: 'g2', name: 'G2', parentid: null, agentList: [], serviceNum: 0, inqueneNum: 0 },
  ],
  agentList: agents,
  agentServiceList: chats,
  inqueneNum: 0,
  leavemsgNum: 3,
  timeoutNum: 0,
  serviceNum: chats.length,
  aiNum: 0,
  replylimit: 60,
  now: 0,
});

describe('monitor model', () => {
  it('applies an update: new, changed and removed chats, message patches, agents, counters', () => {
    const v = fromDesktop(desktop([chat('a'), chat('b')], [agent('a1', ['g1'])]));
    const next = applyUpdate(v, {
      chats: [chat('c', { status: 'inqueue', agentno: null })],
      removed: ['b'],
      messages: [{ agentserviceid: 'a', lastmsg: 'hello', lastmessage: 5_000, lastgetmessage: null }],
      agents: [agent('a1', ['g1'], { status: 'busy' })],
      counters: { inqueneNum: 1, leavemsgNum: 3, timeoutNum: 0, serviceNum: 1, aiNum: 0 },
      createtime: 5_000,
    });
    expect([...next.chats.keys()].sort()).toEqual(['a', 'c']);
    expect(next.chats.get('a')).toMatchObject({ lastmsg: 'hello', lastmessage: 5_000, lastgetmessage: null });
    expect(next.agents.get('a1')!.status).toBe('busy');
    expect(next.counters.inqueneNum).toBe(1);
    // Untouched parts keep their identity (React re-renders only what changed).
    const quiet = applyUpdate(next, {
      chats: [],
      removed: [],
      messages: [],
      agents: [],
      counters: null,
      createtime: 6,
    });
    expect(quiet.chats).toBe(next.chats);
    expect(quiet.agents).toBe(next.agents);
    expect(quiet.counters).toBe(next.counters);
  });

  it('waiting for a reply ticks with the clock; over the limit it is a timeout; the list sorts longest first', () => {
    const v = fromDesktop(
      desktop([
        chat('late', { lastmessage: 10_000 }),
        chat('answered', { lastmessage: 10_000, lastgetmessage: 12_000 }),
        chat('fresh', { lastmessage: 60_000 }),
        chat('queued', { status: 'inqueue', agentno: null, createtime: 5_000 }),
        chat('robot', { ai: 1, agentno: null, lastmessage: 1_000 }),
      ]),
    );
    const now = 75_000;
    expect(withWaiting(v.chats.get('late')!, now, v.replyLimitMs)).toMatchObject({
      waitreply: 65_000,
      timeout: 1,
    });
    expect(withWaiting(v.chats.get('answered')!, now, v.replyLimitMs)).toMatchObject({
      waitreply: 0,
      timeout: 0,
    });
    expect(withWaiting(v.chats.get('fresh')!, now, v.replyLimitMs)).toMatchObject({
      waitreply: 15_000,
      timeout: 0,
    });
    expect(chatList(v, 'lastmessage', undefined, now).map((c) => c.agentserviceid)).toEqual([
      'late',
      'fresh',
      'queued',
      'answered',
      'robot',
    ]);
    expect(chatList(v, 'timeout', undefined, now).map((c) => c.agentserviceid)).toEqual(['late']);
    expect(chatList(v, 'queue', undefined, now).map((c) => c.agentserviceid)).toEqual(['queued']);
    expect(chatList(v, 'lastmessage', 'ai', now).map((c) => c.agentserviceid)).toEqual(['robot']);
    expect(chatList(v, 'lastmessage', 'service', now)).toHaveLength(4);
    expect(liveTimeouts(v, now)).toBe(1);
    // The agent answers (a message patch): no longer waiting.
    const answered = applyUpdate(v, {
      chats: [],
      removed: [],
      messages: [{ agentserviceid: 'late', lastmsg: 'ok', lastmessage: null, lastgetmessage: 74_000 }],
      agents: [],
      counters: null,
      createtime: now,
    });
    expect(liveTimeouts(answered, now)).toBe(0);
  });

  it('wallboard: agents under each of their groups, the others apart; chats counted per group', () => {
    const v = fromDesktop(
      desktop(
        [chat('a'), chat('q', { status: 'inqueue', agentno: null, organ: 'g2' })],
        [agent('x', ['g1', 'g2']), agent('y', ['g2']), agent('z', [])],
      ),
    );
    const board = wallboard(v, 'Other');
    expect(board.map((g) => [g.id, g.agents.map((a) => a.userid), g.serving, g.queued])).toEqual([
      ['g1', ['x'], 1, 0],
      ['g2', ['x', 'y'], 0, 1],
      ['', ['z'], 0, 0],
    ]);
  });

  it('a whisper (seq 0) sits right after the line it followed, before later lines', () => {
    const line = (id: string, seq: number, over: Partial<MessageDto> = {}): MessageDto => ({
      ...({} as MessageDto),
      id,
      seq,
      clientId: `c-${id}`,
      createtime: seq,
      ...over,
    });
    const list = mergeMessages(
      [line('m1', 1), line('m3', 3)],
      [line('w', 0, { whisper: 1, afterseq: 1 }), line('m2', 2)],
    );
    expect(list.map((m) => m.id)).toEqual(['m1', 'w', 'm2', 'm3']);
  });
});
