import { describe, expect, it } from 'vitest';
import type { ChatMessageRow } from './presenter.js';
import type { NewMessage } from './message.service.js';
import { BatchPlan, type ConversationState, type WriteJob } from './message-plan.js';

const state = (id: string, lastseq = 10, status = 'inservice'): ConversationState => ({
  id,
  status,
  agentno: 'agent-1',
  lastseq,
  collabs: 'helper-1',
});

let clock = 1000;
function job(sid: string, calltype: 'in' | 'out', guard?: NewMessage['guard']): WriteJob {
  const m = {
    service: { id: sid },
    calltype,
    type: 'message',
    msgtype: 'text',
    message: `${calltype} at ${clock}`,
    guard,
  } as unknown as NewMessage;
  return { m, row: { seq: 0, touser: '' } as ChatMessageRow, now: clock++ };
}

describe('BatchPlan', () => {
  it('numbers each conversation on from its lastseq and folds the counters into one delta each', () => {
    const plan = new BatchPlan(
      new Map([
        ['a', state('a')],
        ['b', state('b', 0)],
      ]),
    );
    const jobs = [job('a', 'in'), job('b', 'in'), job('a', 'out'), job('a', 'in')];
    expect(jobs.map((j) => plan.take(j))).toEqual([11, 1, 12, 13]);
    const [a, b] = plan.changes();
    expect(a).toMatchObject({
      id: 'a',
      lastseq: 13,
      ins: 2,
      replies: 1,
      lastIn: jobs[3]!.now,
      firstReply: jobs[2]!.now,
    });
    expect(b).toMatchObject({ id: 'b', lastseq: 1, ins: 1, replies: 0, lastReply: null });
    const final = (sid: string) => (sid === 'a' ? 7 : undefined);
    expect([0, 2, 3].map((i) => plan.written(i, final)?.tokenum)).toEqual([6, 6, 7]);
    expect(plan.written(1, final)?.tokenum).toBe(0); // no chat entry
  });

  it('takes a failed insert back so the next message gets its seq: no gaps', () => {
    const plan = new BatchPlan(new Map([['a', state('a')]]));
    const jobs = [job('a', 'in'), job('a', 'in'), job('a', 'in')];
    expect(plan.take(jobs[0]!)).toBe(11);
    expect(plan.take(jobs[1]!)).toBe(12);
    plan.undoLast();
    expect(plan.take(jobs[2]!)).toBe(12);
    expect(plan.changes()[0]).toMatchObject({ lastseq: 12, ins: 2 });
    expect(plan.written(1, () => 2)).toBeNull();
    expect(plan.written(2, () => 2)?.tokenum).toBe(2);
  });

  it('an undone first message leaves its conversation untouched', () => {
    const plan = new BatchPlan(new Map([['a', state('a')]]));
    plan.take(job('a', 'in'));
    plan.undoLast();
    expect(plan.changes()).toEqual([]);
  });

  it('checks guards against the state it read: ended, not the owner, a collaborator, missing', () => {
    const plan = new BatchPlan(
      new Map([
        ['a', state('a')],
        ['e', state('e', 3, 'end')],
        ['q', { ...state('q', 0, 'inqueue'), agentno: null }],
      ]),
    );
    expect(plan.take(job('e', 'in', { kind: 'visitor' }))).toBeNull();
    expect(plan.take(job('a', 'out', { kind: 'agent', agent: 'someone' }))).toBeNull();
    expect(plan.take(job('a', 'out', { kind: 'agent', agent: 'helper-1' }))).toBe(11);
    const queued = job('q', 'in', { kind: 'visitor' });
    expect(plan.take(queued)).toBe(1);
    expect(queued.row.touser).toBe('');
    expect(plan.take(job('gone', 'in', { kind: 'visitor' }))).toBeNull();
    expect(() => plan.take(job('gone', 'in'))).toThrow(/not found/);
  });
});
