import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  GAP_GRACE_MS,
  REPLAY_PAGE_SIZE,
  type Ack,
  type AgentUserDto,
  type MessageDto,
  type ReplayPage,
} from '@kefu/protocol';
import type { AgentSocket } from '../../lib/socket';
import { dialogueReplay, type DialogueReplay } from './replay';
import { useDialogue } from './store';

const line = (seq: number, calltype: 'in' | 'out' = 'in'): MessageDto =>
  ({
    id: `m${seq}`,
    agentserviceid: 's1',
    seq,
    clientId: `c${seq}-client`,
    type: 'message',
    msgtype: 'text',
    calltype,
    message: `line ${seq}`,
    createtime: 1_000 + seq,
    tokenum: 0,
  }) as MessageDto;

/** A socket whose `replay` is answered from a conversation of `total` lines, recording each request. */
function server(total: number) {
  const asked: Array<{ after: number; ps: number }> = [];
  const socket = {
    connected: true,
    emit: (
      event: string,
      p: { agentserviceid: string; after: number; ps: number },
      ack: (r: Ack<ReplayPage>) => void,
    ) => {
      if (event !== 'replay') return;
      asked.push({ after: p.after, ps: p.ps });
      const list: MessageDto[] = [];
      for (let s = p.after + 1; s <= Math.min(total, p.after + p.ps); s++) list.push(line(s));
      const data = { agentserviceid: p.agentserviceid, list, hasMore: p.after + p.ps < total };
      queueMicrotask(() => ack({ success: true, data, msg: 'ok', code: 200 }));
    },
  };
  return { socket: socket as unknown as AgentSocket, asked };
}

const seqs = () => (useDialogue.getState().messages.s1 ?? []).map((m) => m.seq);
const hold = (...list: MessageDto[]) => useDialogue.setState({ messages: { s1: list } });

let replay: DialogueReplay | undefined;
beforeEach(() => {
  useDialogue.getState().reset();
  useDialogue.getState().dispatch({
    type: 'load',
    list: [{ id: 'au1', agentserviceid: 's1', userid: 'v1', tokenum: 0 } as AgentUserDto],
  });
});
afterEach(() => {
  replay?.stop();
  vi.useRealTimers();
});

describe('dialogueReplay', () => {
  it('resumes from the highest seq below which every line is held, not from the highest seen', () => {
    replay = dialogueReplay(() => null);
    // the agent's own acknowledged line 5 arrived; the visitor's 3 and 4 did not
    hold(line(1), line(2), line(5, 'out'));
    expect(replay.lastSeqs()).toEqual({ s1: 2 });
    // a conversation opened on its newest page (older history exists) is kept from that page on
    useDialogue.setState({
      messages: { s1: [line(31), line(32), line(33)] },
      loaded: { s1: true },
      hasMore: { s1: true },
    });
    expect(replay.lastSeqs()).toEqual({ s1: 33 });
  });

  it('fetches a hole that stays open past the grace time; older lines do not move the chat list back', async () => {
    vi.useFakeTimers();
    const srv = server(6);
    replay = dialogueReplay(() => srv.socket);
    hold(line(1), line(2));
    useDialogue.getState().receive(line(6));
    expect(useDialogue.getState().chats.list[0]!.lastmsg).toBe('line 6');
    await vi.advanceTimersByTimeAsync(GAP_GRACE_MS - 10);
    expect(srv.asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(20);
    expect(srv.asked).toEqual([{ after: 2, ps: 3 }]);
    expect(seqs()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(useDialogue.getState().chats.list[0]!.lastmsg).toBe('line 6');
    expect(replay.lastSeqs()).toEqual({ s1: 6 });
  });

  it('a hole that fills in time (an ack overtaking a line) is not fetched', async () => {
    vi.useFakeTimers();
    const srv = server(3);
    replay = dialogueReplay(() => srv.socket);
    hold(line(1), line(3, 'out'));
    useDialogue.getState().receive(line(2));
    await vi.advanceTimersByTimeAsync(GAP_GRACE_MS * 2);
    expect(srv.asked).toEqual([]);
  });

  it(`on resync pages 1,500 missed lines by ${REPLAY_PAGE_SIZE}; the newest moves the chat list on`, async () => {
    const srv = server(1_502);
    replay = dialogueReplay(() => srv.socket);
    hold(line(1), line(2));
    await replay.resync();
    expect(srv.asked).toEqual([
      { after: 2, ps: 500 },
      { after: 502, ps: 500 },
      { after: 1002, ps: 500 },
    ]);
    expect(seqs()).toEqual(Array.from({ length: 1_502 }, (_, i) => i + 1));
    expect(useDialogue.getState().chats.list[0]!.lastmsg).toBe('line 1502');
  });

  it('asks nothing while offline', async () => {
    const srv = server(10);
    replay = dialogueReplay(() => ({ ...srv.socket, connected: false }) as AgentSocket);
    hold(line(1));
    await replay.resync();
    expect(srv.asked).toEqual([]);
    expect(seqs()).toEqual([1]);
  });
});
