import { describe, expect, it } from 'vitest';
import type { AgentUserDto } from '@kefu/protocol';
import {
  chatListReducer,
  emptyChatList,
  freshTotal,
  sortChats,
  unreadTotal,
  waitedMs,
  type ChatListState,
} from './chatList';
import { chatEntry as entry, message as msg } from './fixtures';

const sort = 'servicetime' as const;
const loaded = (...list: AgentUserDto[]): ChatListState =>
  chatListReducer(emptyChatList, { type: 'load', list, sort });

describe('chat list reducer', () => {
  it('auto-selects the first chat on load and clears its unread count', () => {
    const s = loaded(
      entry('a', { servicetime: 3_000, tokenum: 2 }),
      entry('b', { servicetime: 2_000, tokenum: 4 }),
    );
    expect(s.selectedId).toBe('a');
    expect(s.list.map((c) => [c.id, c.tokenum])).toEqual([
      ['a', 0],
      ['b', 4],
    ]);
    expect(unreadTotal(s)).toBe(4);
  });

  it('keeps the selection over a reload when the chat is still there', () => {
    let s = loaded(entry('a', { servicetime: 3_000 }), entry('b', { servicetime: 2_000 }));
    s = chatListReducer(s, { type: 'select', id: 'b' });
    s = chatListReducer(s, { type: 'load', list: [entry('a'), entry('b')], sort });
    expect(s.selectedId).toBe('b');
  });

  it('adds a new chat unless the same visitor is listed; the selected one is live again', () => {
    let s = loaded(entry('a'));
    s = chatListReducer(s, { type: 'new', entry: entry('b', { servicetime: 9_000 }), sort });
    expect(s.list.map((c) => c.id)).toEqual(['b', 'a']);
    s = chatListReducer(s, { type: 'over', agentuserid: 'a' });
    expect(s.list.find((c) => c.id === 'a')?.over).toBe(1);
    s = chatListReducer(s, {
      type: 'new',
      entry: entry('a', { agentserviceid: 's-a2', over: 1 }),
      sort,
    });
    expect(s.list).toHaveLength(2);
    const a = s.list.find((c) => c.id === 'a');
    expect(a?.over).toBe(0);
    expect(a?.agentserviceid).toBe('s-a2');
  });

  it('does not reset over on a same-visitor chat that is not selected', () => {
    let s = loaded(entry('a', { servicetime: 3_000 }), entry('b', { servicetime: 2_000, over: 1 }));
    s = chatListReducer(s, { type: 'new', entry: entry('b', { over: 1 }), sort });
    expect(s.list.find((c) => c.id === 'b')?.over).toBe(1);
    expect(s.list).toHaveLength(2);
  });

  it('a new chat takes the place of an open chat that is over or whose visitor left, not of a live one', () => {
    let s = loaded(entry('a', { servicetime: 3_000 }), entry('b', { servicetime: 2_000 }));
    expect(s.selectedId).toBe('a');
    s = chatListReducer(s, { type: 'new', entry: entry('c', { servicetime: 4_000 }), sort });
    expect(s.selectedId).toBe('a');
    expect(s.list.find((c) => c.id === 'c')?.fresh).toBe(true);
    expect(freshTotal(s)).toBe(1);
    // The visitor of the open chat closes the window; the next new chat is opened instead.
    s = chatListReducer(s, { type: 'presence', agentserviceid: 's-a', online: false, offtime: 123 });
    expect(s.list.find((c) => c.id === 'a')).toMatchObject({ online: false, offtime: 123 });
    s = chatListReducer(s, { type: 'new', entry: entry('d', { servicetime: 5_000 }), sort });
    expect(s.selectedId).toBe('d');
    expect(s.list.find((c) => c.id === 'd')?.fresh).toBe(false);
    // Over works the same; opening a fresh chat clears its mark.
    s = chatListReducer(s, { type: 'over', agentuserid: 'd' });
    s = chatListReducer(s, { type: 'new', entry: entry('e', { servicetime: 6_000 }), sort });
    expect(s.selectedId).toBe('e');
    s = chatListReducer(s, { type: 'select', id: 'c' });
    expect(freshTotal(s)).toBe(0);
  });

  it('selects a new chat when none is selected', () => {
    const s = chatListReducer(emptyChatList, { type: 'new', entry: entry('x', { tokenum: 1 }), sort });
    expect(s.selectedId).toBe('x');
    expect(s.list[0].tokenum).toBe(0);
  });

  it('end removes the chat; a selected one hands the selection to the next', () => {
    let s = loaded(
      entry('a', { servicetime: 3_000 }),
      entry('b', { servicetime: 2_000 }),
      entry('c', { servicetime: 1_000 }),
    );
    s = chatListReducer(s, { type: 'select', id: 'b' });
    s = chatListReducer(s, { type: 'end', entry: { id: 'b', agentserviceid: 's-b' } });
    expect(s.list.map((c) => c.id)).toEqual(['a', 'c']);
    expect(s.selectedId).toBe('c');
    s = chatListReducer(s, { type: 'end', entry: { id: 'c', agentserviceid: 's-c' } });
    expect(s.selectedId).toBe('a');
    s = chatListReducer(s, { type: 'end', entry: { id: 'zz', agentserviceid: 's-a' } });
    expect(s).toEqual({ list: [], selectedId: null });
  });

  it('end of an unselected chat keeps the selection', () => {
    let s = loaded(entry('a', { servicetime: 3_000 }), entry('b', { servicetime: 2_000 }));
    s = chatListReducer(s, { type: 'end', entry: { id: 'b', agentserviceid: 's-b' } });
    expect(s.selectedId).toBe('a');
  });

  it('over sets over=1 on the selected chat', () => {
    let s = loaded(entry('a'));
    s = chatListReducer(s, { type: 'over', agentuserid: 'a', agentserviceid: 's-a' });
    expect(s.list[0].over).toBe(1);
  });

  describe('collaboration', () => {
    const theirs = (id: string, over: Partial<AgentUserDto> = {}) =>
      entry(id, { agentno: 'owner', collabora: 1, ...over });

    it('collaboration_new adds a chat marked collabora, not the own chat, not twice', () => {
      let s = loaded(entry('a', { servicetime: 3_000 }));
      s = chatListReducer(s, {
        type: 'collaboration_new',
        entry: entry('c', { agentno: 'owner', servicetime: 9_000 }),
        me: 'me',
        sort,
      });
      expect(s.list.map((c) => [c.id, c.collabora])).toEqual([
        ['c', 1],
        ['a', 0],
      ]);
      expect(s.selectedId).toBe('a');
      const same = chatListReducer(s, { type: 'collaboration_new', entry: theirs('c'), me: 'me', sort });
      expect(same).toBe(s);
      const own = chatListReducer(s, { type: 'collaboration_new', entry: entry('z'), me: 'me', sort });
      expect(own).toBe(s);
      const ownById = chatListReducer(s, { type: 'collaboration_new', entry: entry('a'), me: 'me', sort });
      expect(ownById.list).toHaveLength(2);
    });

    it('collaboration_new selects the chat when none is selected', () => {
      const s = chatListReducer(emptyChatList, {
        type: 'collaboration_new',
        entry: theirs('c', { tokenum: 2 }),
        me: 'me',
        sort,
      });
      expect(s.selectedId).toBe('c');
      expect(s.list[0].tokenum).toBe(0);
    });

    it('collaboration_leave removes it and hands a selection to the next chat', () => {
      let s = loaded(entry('a', { servicetime: 1_000 }));
      for (const [id, t] of [
        ['c', 3_000],
        ['d', 2_000],
      ] as const)
        s = chatListReducer(s, {
          type: 'collaboration_new',
          entry: theirs(id, { servicetime: t }),
          me: 'me',
          sort,
        });
      s = chatListReducer(s, { type: 'select', id: 'c' });
      s = chatListReducer(s, { type: 'collaboration_leave', agentuserid: 'c', agentserviceid: 's-c' });
      expect(s.list.map((c) => c.id)).toEqual(['d', 'a']);
      expect(s.selectedId).toBe('d');
      s = chatListReducer(s, { type: 'collaboration_leave', agentuserid: 'x', agentserviceid: 's-d' });
      expect(s.list.map((c) => c.id)).toEqual(['a']);
      expect(s.selectedId).toBe('a');
      // the agent's own chat is never removed by a collaboration_leave
      const same = chatListReducer(s, {
        type: 'collaboration_leave',
        agentuserid: 'a',
        agentserviceid: 's-a',
      });
      expect(same).toBe(s);
    });

    it('collaboration_over marks it over; a reload keeps collaborator chats; new makes it own', () => {
      let s = loaded(entry('a'));
      s = chatListReducer(s, { type: 'collaboration_new', entry: theirs('c'), me: 'me', sort });
      s = chatListReducer(s, { type: 'collaboration_over', agentuserid: 'c', agentserviceid: 's-c' });
      expect(s.list.find((c) => c.id === 'c')?.over).toBe(1);
      expect(s.list.find((c) => c.id === 'a')?.over).toBe(0);
      s = chatListReducer(s, { type: 'load', list: [entry('a')], sort });
      expect(s.list.map((c) => c.id).sort()).toEqual(['a', 'c']);
      // it took the transfer: the server's `new` entry replaces the collaborator one
      s = chatListReducer(s, { type: 'new', entry: entry('c'), sort });
      expect(s.list.filter((c) => c.id === 'c').map((c) => c.collabora)).toEqual([0]);
    });
  });

  it('select resets the unread count', () => {
    let s = loaded(entry('a', { servicetime: 3_000 }), entry('b', { servicetime: 2_000, tokenum: 3 }));
    s = chatListReducer(s, { type: 'select', id: 'b' });
    expect(s.list[1].tokenum).toBe(0);
  });

  it('an incoming message marks the chat waiting; an outgoing one resets the waiting time', () => {
    let s = loaded(entry('a', { servicetime: 3_000 }), entry('b', { servicetime: 2_000 }));
    s = chatListReducer(s, {
      type: 'message',
      msg: msg({ agentserviceid: 's-b', tokenum: 1, createtime: 5_000 }),
      summary: 'hi',
    });
    const b = s.list[1];
    expect(b).toMatchObject({
      waiting: true,
      waitingSince: 5_000,
      tokenum: 1,
      lastmsg: 'hi',
      lastmessage: 5_000,
    });
    expect(waitedMs(b, 8_000)).toBe(3_000);
    s = chatListReducer(s, {
      type: 'message',
      msg: msg({ agentserviceid: 's-b', tokenum: 2, createtime: 6_000 }),
      summary: 'again',
    });
    expect(s.list[1]).toMatchObject({ waitingSince: 5_000, tokenum: 2 });
    s = chatListReducer(s, {
      type: 'message',
      msg: msg({ agentserviceid: 's-b', calltype: 'out', createtime: 7_000 }),
      summary: 'answer',
    });
    expect(s.list[1]).toMatchObject({
      waiting: false,
      waitingSince: null,
      waitingtime: 0,
      lastgetmessage: 7_000,
    });
    expect(waitedMs(s.list[1], 9_000)).toBe(0);
  });

  it('an incoming message on the open chat leaves its unread count at 0', () => {
    let s = loaded(entry('a'));
    s = chatListReducer(s, { type: 'message', msg: msg({ tokenum: 5 }), summary: 'hi' });
    expect(s.list[0].tokenum).toBe(0);
    expect(s.list[0].waiting).toBe(true);
  });

  it('typing notices change nothing', () => {
    const s = loaded(entry('a'));
    expect(chatListReducer(s, { type: 'message', msg: msg({ type: 'writing' }), summary: '' })).toBe(s);
  });

  it('sorts by service time or by last message, newest first', () => {
    const list = [
      entry('a', { servicetime: 1, lastmessage: 30 }),
      entry('b', { servicetime: 3, lastmessage: 10 }),
      entry('c', { servicetime: 2, lastmessage: null }),
    ];
    expect(sortChats(list, 'servicetime').map((c) => c.id)).toEqual(['b', 'c', 'a']);
    expect(sortChats(list, 'lastmessage').map((c) => c.id)).toEqual(['a', 'b', 'c']);
  });
});
