import type { ChatMessageRow } from './presenter.js';
import type { NewMessage } from './message.service.js';

/** One message waiting in the group commit. */
export interface WriteJob {
  m: NewMessage;
  row: ChatMessageRow;
  now: number;
}

/** Who follows the conversation, as read by the write that stored the message. */
export interface Live {
  agentno: string | null;
  collaborators: string[];
}

/** What storing a message yields; null: the guard failed (the conversation ended or moved), nothing stored. */
export type Written = { tokenum: number; live: Live } | null;

export type Kind = 'in' | 'reply' | 'other';

export const kindOf = (m: NewMessage): Kind =>
  m.calltype === 'in' ? 'in' : m.calltype === 'out' && m.type === 'message' ? 'reply' : 'other';

export const preview = (m: NewMessage): string =>
  m.msgtype === 'text' ? m.message.slice(0, 100) : `[${m.msgtype}]`;

/** A conversation as the batch found it (locked), before any of the batch's messages. */
export interface ConversationState {
  id: string;
  status: string;
  agentno: string | null;
  lastseq: number;
  collabs: string | null;
}

/** The changes a batch makes to one conversation and its chat entry, applied once per conversation. */
export interface ConversationDelta {
  id: string;
  lastseq: number;
  /** Visitor messages (userasks, unread count, idle-warning reset). */
  ins: number;
  replies: number;
  lastIn: number | null;
  lastReply: number | null;
  firstReply: number | null;
  lastmsg: string;
  updatetime: number;
}

interface Step {
  job: WriteJob;
  before: ConversationDelta;
  /** Visitor messages of the conversation up to and including this one. */
  insSoFar: number;
  live: Live;
}

/**
 * Plans a batch of messages against the conversations it touches: checks each message's guard, gives it the
 * next seq of its conversation and folds its counters into one delta per conversation, so the database
 * sees one UPDATE per conversation instead of one per message. A step can be taken back (its insert
 * failed, e.g. a resend hitting the unique index) as long as it is the last one of its conversation, which
 * keeps seqs gap-free.
 */
export class BatchPlan {
  private readonly deltas = new Map<string, ConversationDelta>();
  private readonly steps: Array<Step | null> = [];
  private readonly live = new Map<string, Live>();

  constructor(private readonly states: Map<string, ConversationState>) {}

  /** Plans the next job: its seq (set on job.row), or null when its guard fails; throws when the conversation is missing. */
  take(job: WriteJob): number | null {
    const { m } = job;
    const sid = m.service.id;
    const st = this.states.get(sid);
    if (!st) {
      this.steps.push(null);
      if (m.guard) return null;
      throw new Error(`conversation ${sid} not found`);
    }
    const live = this.liveOf(st);
    const g = m.guard;
    const open =
      !g ||
      (g.kind === 'visitor'
        ? st.status === 'inqueue' || st.status === 'inservice'
        : st.status === 'inservice' && (st.agentno === g.agent || live.collaborators.includes(g.agent)));
    if (!open) {
      this.steps.push(null);
      return null;
    }
    const d = this.deltas.get(sid) ?? this.fresh(st);
    const before = { ...d };
    const kind = kindOf(m);
    d.lastseq++;
    if (kind === 'in') {
      d.ins++;
      d.lastIn = job.now;
    } else if (kind === 'reply') {
      d.replies++;
      d.lastReply = job.now;
      d.firstReply ??= job.now;
    }
    d.lastmsg = preview(m);
    d.updatetime = job.now;
    this.deltas.set(sid, d);
    job.row.seq = d.lastseq;
    if (g?.kind === 'visitor') job.row.touser = st.agentno ?? '';
    this.steps.push({ job, before, insSoFar: d.ins, live });
    return d.lastseq;
  }

  /** Takes back the last step (its row was not stored). */
  undoLast(): void {
    const step = this.steps[this.steps.length - 1];
    if (!step) return;
    this.steps[this.steps.length - 1] = null;
    const sid = step.job.m.service.id;
    if (step.before.lastseq === this.states.get(sid)?.lastseq) this.deltas.delete(sid);
    else this.deltas.set(sid, step.before);
  }

  /** One delta per conversation the batch wrote to. */
  changes(): ConversationDelta[] {
    return [...this.deltas.values()];
  }

  /**
   * Each planned job's result. `finalTokenum`: the chat entry's unread count after the batch (undefined
   * when the conversation has no entry); each message reports the count as it stood after it.
   */
  written(step: number, finalTokenum: (sid: string) => number | undefined): Written {
    const s = this.steps[step];
    if (!s) return null;
    const sid = s.job.m.service.id;
    const total = this.deltas.get(sid)?.ins ?? 0;
    const fin = finalTokenum(sid);
    return { tokenum: fin === undefined ? 0 : fin - (total - s.insSoFar), live: s.live };
  }

  private fresh(st: ConversationState): ConversationDelta {
    return {
      id: st.id,
      lastseq: Number(st.lastseq),
      ins: 0,
      replies: 0,
      lastIn: null,
      lastReply: null,
      firstReply: null,
      lastmsg: '',
      updatetime: 0,
    };
  }

  private liveOf(st: ConversationState): Live {
    let l = this.live.get(st.id);
    if (!l)
      this.live.set(
        st.id,
        (l = { agentno: st.agentno, collaborators: st.collabs ? st.collabs.split(',') : [] }),
      );
    return l;
  }
}
