import { io, type Socket } from 'socket.io-client';
import type {
  Ack,
  AssignedNotice,
  LeaveMessageOffer,
  MessageDto,
  MsgType,
  VisitorAgentInfo,
  VisitorClientToServerEvents,
  VisitorNewPayload,
  VisitorNewResult,
  VisitorRobotInfo,
  VisitorServerToClientEvents,
  VisitorWelcome,
} from '@kefu/protocol';
import { CatchUp, RESTART_EVENT, VISITOR_NAMESPACE, restartFollower, type ReplayPage } from '@kefu/protocol';
import { forgetIdentity, loadIdentity, saveIdentity, type VisitorIdentity } from '../lib/storage.js';
import { randomId } from '../lib/ids.js';
import { clearOutbox, loadOutbox, saveOutbox } from '../lib/outbox.js';
import { lang, t } from '../lib/i18n.js';
import * as tl from '../lib/timeline.js';

type VSocket = Socket<VisitorServerToClientEvents, VisitorClientToServerEvents>;

/** The widget's reconnection back-off (longer than the console's: many visitors, a cheaper miss). */
const RECONNECTION = { reconnectionDelay: 1000, reconnectionDelayMax: 10_000 };

export type ChatStatus = VisitorWelcome['status'];

export interface ChatState {
  /** connecting: before the first welcome; ready: welcome received; fatal: cannot work (bad appid). */
  phase: 'connecting' | 'ready' | 'fatal';
  online: boolean;
  status: ChatStatus;
  agent: VisitorAgentInfo | null;
  /** The robot serving the chat (ai = 1): the widget shows its name and the 转人工 button. */
  robot: VisitorRobotInfo | null;
  position: number | null;
  timeline: tl.Timeline;
  typing: boolean;
  leavemsg: LeaveMessageOffer | null;
  /** A rating is asked for this conversation. */
  rating: { agentserviceid: string; message: string } | null;
  rated: string[];
  error: string;
  serverConfig: VisitorWelcome['config'] | null;
}

const ACK_TIMEOUT = 15_000;

/** The `/im/user` connection: identity, catch-up with lastSeq, outbox resend, state for the UI. */
export class ChatClient {
  state: ChatState = {
    phase: 'connecting',
    online: false,
    status: 'none',
    agent: null,
    robot: null,
    position: null,
    timeline: tl.emptyTimeline(),
    typing: false,
    leavemsg: null,
    rating: null,
    rated: [],
    error: '',
    serverConfig: null,
  };
  identity: VisitorIdentity;
  private socket: VSocket | null = null;
  private listeners = new Set<() => void>();
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set on the first welcome of this page: a conversation this page started or resumed. */
  private started = false;
  visible = true;
  /** The welcome of the widget config (the prompts' one, in the visitor's language); else the welcome event's. */
  welcomeText = '';
  /** Catch-up of the followed conversation: resume position, holes, replay after `resync`. */
  private readonly sync = new CatchUp({
    holding: (sid) => ({ seqs: tl.heldSeqs(this.state.timeline, sid) }),
    fetch: async (agentserviceid, after, ps) => {
      const s = this.socket;
      if (!s?.connected) throw new Error('offline');
      const res = (await s
        .timeout(ACK_TIMEOUT)
        .emitWithAck('replay', { agentserviceid, after, ps })) as Ack<ReplayPage>;
      if (!res.success) throw new Error(res.msg);
      return res.data;
    },
    deliver: (page) => this.received(page.list),
  });

  constructor(
    readonly base: string,
    readonly appid: string,
    /** Called on the first welcome with no open conversation: the UI decides (form or `start`). */
    private readonly onIdle: () => void,
  ) {
    this.identity = loadIdentity(appid);
    // Messages left unsent by an earlier page (reload while offline): shown pending, resent on welcome.
    this.state.timeline = {
      ...this.state.timeline,
      outbox: loadOutbox(appid, this.identity.userid).map((o) => ({
        ...o,
        msgtype: 'text' as const,
        attachmentid: null,
        filename: null,
        filesize: null,
        state: 'pending' as const,
      })),
    };
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private set(patch: Partial<ChatState>): void {
    const before = this.state.timeline.outbox;
    this.state = { ...this.state, ...patch };
    if (this.state.timeline.outbox !== before) this.persistOutbox();
    for (const fn of this.listeners) fn();
  }

  /** Keeps the unacked text messages in localStorage (an ack removes them, an empty outbox the key). */
  private persistOutbox(): void {
    saveOutbox(
      this.appid,
      this.identity.userid,
      this.state.timeline.outbox
        .filter((o) => o.msgtype === 'text' && !o.attachmentid)
        .map((o) => ({
          clientId: o.clientId,
          message: o.message,
          createtime: o.createtime,
          agentserviceid: o.agentserviceid ?? null,
        })),
    );
  }

  private setTl(f: (x: tl.Timeline) => tl.Timeline): void {
    this.set({ timeline: f(this.state.timeline) });
  }

  private notice(key: string, text: string): void {
    this.setTl((x) => tl.addNotice(x, key, text, Date.now()));
  }

  private query(): Record<string, string> {
    const q: Record<string, string> = { appid: this.appid, userid: this.identity.userid, l: lang() };
    if (this.identity.token) q.token = this.identity.token;
    // Where everything below is held: our own acknowledged lines do not count past a missing reply.
    const sid = this.state.timeline.current;
    if (sid) q.lastSeq = String(this.sync.position(sid));
    return q;
  }

  connect(): void {
    const socket: VSocket = io(`${this.base}${VISITOR_NAMESPACE}`, {
      query: this.query(),
      ...RECONNECTION,
    });
    this.socket = socket;
    // A server shutting down says it will be back: retry every few hundred ms until it is (restart.ts).
    const restart = restartFollower(socket.io, RECONNECTION);
    socket.on(RESTART_EVENT, restart.hint);
    socket.io.on('reconnect_attempt', () => {
      socket.io.opts.query = this.query();
    });
    socket.on('connect', () => {
      restart.connected();
      this.set({ online: true, error: '' });
    });
    socket.on('disconnect', () => this.set({ online: false, typing: false }));
    socket.on('connect_error', (err: Error) => this.refused(err));
    socket.on('welcome', (w) => this.welcome(w));
    socket.on('queue', (q) => {
      this.follow(q.agentserviceid);
      this.set({ status: 'inqueue', position: q.position, robot: null });
      this.notice(
        `queue:${q.agentserviceid}`,
        q.message || t('queue', { ahead: q.ahead, position: q.position }),
      );
    });
    socket.on('assigned', (a) => this.assigned(a));
    socket.on('message', (m) => this.incoming(m));
    socket.on('writing', () => {
      clearTimeout(this.typingTimer);
      this.set({ typing: true });
      this.typingTimer = setTimeout(() => this.set({ typing: false }), 4000);
    });
    socket.on('read', (r) => this.setTl((x) => tl.markRead(x, r.agentserviceid, r.seq)));
    socket.on('withdraw', (n) => this.setTl((x) => tl.withdrawMessage(x, n)));
    socket.on('end', (e) => this.ended(e.agentserviceid, e.message));
    socket.on('leavemsg', (l) => this.set({ leavemsg: l }));
    socket.on('satisfaction', (s) => this.askRating(s.agentserviceid, s.message));
    socket.on('status', (s) => this.notice(`status:${Date.now()}`, s.message));
    socket.on('robot', (r) => {
      if (r.agentserviceid === this.state.timeline.current || !this.state.timeline.current)
        this.set({ robot: r.robot, ...(r.robot ? { agent: null } : {}) });
    });
    // Lines of the agent's node may have been lost while delivery between nodes was down.
    socket.on('resync', () => {
      const sid = this.state.timeline.current;
      if (sid) void this.sync.catchUp(sid);
    });
  }

  close(): void {
    this.sync.stop();
    this.socket?.disconnect();
  }

  private refused(err: Error): void {
    const key = err.message;
    if (key === 'visitor_token') {
      // Our credential is no longer valid: start over as a new visitor.
      clearOutbox(this.appid, this.identity.userid);
      forgetIdentity(this.appid);
      this.identity = loadIdentity(this.appid);
      this.set({ timeline: tl.emptyTimeline() });
      this.retry(0);
    } else if (key === 'access_point_not_found') {
      this.set({ phase: 'fatal', error: t('errAccess') });
    } else if (key === 'invalid_field') {
      this.set({ phase: 'fatal', error: t('errAppid') });
    } else if (this.socket && !this.socket.active) {
      this.retry(3000);
    }
  }

  private retry(delay: number): void {
    const s = this.socket;
    if (!s) return;
    setTimeout(() => {
      s.io.opts.query = this.query();
      s.connect();
    }, delay);
  }

  /** An agent took the chat: from `assigned`, or from the ack of this page's own `new` (see start). */
  private assigned(a: AssignedNotice): void {
    this.follow(a.agentserviceid);
    this.setTl((x) => tl.removeNotice(x, `queue:${a.agentserviceid}`));
    this.set({ status: 'inservice', agent: a.agent, robot: null, position: null, leavemsg: null });
    this.notice(
      `assigned:${a.agentserviceid}:${a.agent.id}`,
      a.message || t('assigned', { agent: a.agent.nickname }),
    );
  }

  private follow(agentserviceid: string): void {
    this.setTl((x) => tl.follow(x, agentserviceid));
  }

  private welcome(w: VisitorWelcome): void {
    if (w.userid !== this.identity.userid) clearOutbox(this.appid, this.identity.userid);
    this.identity = { userid: w.userid, token: w.token };
    saveIdentity(this.appid, this.identity);
    const prev = this.state.timeline;
    if (prev.current && w.agentserviceid && w.agentserviceid !== prev.current && prev.lastSeq > 0) {
      // Another conversation began elsewhere: our lastSeq meant the old one, so ask again from 0.
      this.set({ timeline: tl.follow(prev, w.agentserviceid, 0) });
      this.socket?.disconnect();
      this.retry(0);
      return;
    }
    const first = !this.started;
    this.started = true;
    const open = w.status === 'inqueue' || w.status === 'inservice';
    // Restored messages belong to the conversation they were written in: kept only while it is open.
    if (first) this.setTl((x) => tl.keepOutboxOf(x, open ? (w.agentserviceid ?? null) : undefined));
    if (open || (w.status === 'end' && !first)) this.follow(w.agentserviceid ?? '');
    this.set({
      phase: 'ready',
      serverConfig: w.config,
      status: first && !open ? 'none' : w.status,
      agent: w.agent,
      robot: open ? (w.robot ?? null) : null,
      position: w.position,
    });
    if (first) this.notice('welcome', this.welcomeText || w.config.welcome || t('welcome'));
    if (w.status === 'inqueue' && w.position)
      this.notice(`queue:${w.agentserviceid}`, t('queue', { ahead: w.position - 1, position: w.position }));
    if (open) this.resend();
    else if (first) this.onIdle();
    else if (w.status === 'end') this.ended(w.agentserviceid ?? '', '');
  }

  /** Asks for an agent (after the pre-chat form, if any). */
  async start(form: VisitorNewPayload): Promise<void> {
    const s = this.socket;
    if (!s) return;
    this.set({ status: 'inqueue', leavemsg: null });
    try {
      const res = (await s.timeout(ACK_TIMEOUT).emitWithAck('new', form)) as Ack<VisitorNewResult>;
      if (!res.success) {
        this.set({ status: 'none', error: res.msg });
        return;
      }
      const r = res.data;
      if (r.message !== undefined && r.agent) {
        // This request got the chat its agent: the server sends `assigned` only to our other sockets, and
        // the ack carries the notice instead.
        this.assigned({
          agentserviceid: r.agentserviceid,
          agent: r.agent,
          message: r.message,
          transfer: false,
        });
      } else {
        this.follow(r.agentserviceid);
        this.set({
          status: r.status,
          agent: r.agent ?? this.state.agent,
          robot: r.robot ?? null,
          position: r.position,
        });
      }
      this.resend();
    } catch {
      this.set({ status: 'none', error: t('errNetwork') });
    }
  }

  private incoming(m: MessageDto): void {
    if (!this.state.timeline.current && m.agentserviceid) this.follow(m.agentserviceid);
    this.received([m]);
  }

  /** Live, caught-up or replayed lines: merged, a hole below them looked for, read up to the newest. */
  private received(list: readonly MessageDto[]): void {
    if (list.length === 0) return;
    this.setTl((x) => list.reduce((acc, m) => tl.mergeMessage(acc, m), x));
    if (list.some((m) => m.calltype === 'out')) this.set({ typing: false });
    this.checkHole();
    this.markSeen();
  }

  private checkHole(): void {
    const sid = this.state.timeline.current;
    if (sid) this.sync.noticed(sid);
  }

  /** Tells the server the visitor saw everything (only while the window is visible). */
  markSeen(): void {
    const x = this.state.timeline;
    if (!this.visible || !this.socket?.connected || !x.current || x.lastSeq === 0) return;
    this.socket.emit('read', { seq: x.lastSeq });
  }

  send(msgtype: MsgType, message: string, file?: { id: string; filename: string; size: number }): void {
    const o = {
      clientId: randomId(24),
      msgtype,
      message,
      attachmentid: file?.id ?? null,
      filename: file?.filename ?? null,
      filesize: file?.size ?? null,
      createtime: Date.now(),
      agentserviceid: this.state.timeline.current,
    };
    this.setTl((x) => tl.addOutgoing(x, o));
    this.transmit(o);
  }

  /** Sends one outbox entry; without an ack it stays pending and is resent with the same clientId. */
  private async transmit(o: Omit<tl.Outgoing, 'state'>): Promise<void> {
    const s = this.socket;
    // Before the conversation exists (or offline) it waits in the outbox; `start`/`welcome` resend it.
    if (!s?.connected || (this.state.status !== 'inqueue' && this.state.status !== 'inservice')) return;
    this.setTl((x) => tl.setOutgoingState(x, o.clientId, 'pending'));
    try {
      const res = (await s.timeout(ACK_TIMEOUT).emitWithAck('message', {
        clientId: o.clientId,
        message: o.message,
        msgtype: o.msgtype,
        attachmentid: o.attachmentid,
      })) as Ack<MessageDto>;
      if (res.success) {
        this.setTl((x) => tl.ackOutgoing(x, res.data));
        this.checkHole();
      } else {
        this.setTl((x) => tl.setOutgoingState(x, o.clientId, 'failed'));
        this.set({ error: res.msg });
      }
    } catch {
      // No ack in time: still pending; the next welcome resends it.
    }
  }

  retrySend(clientId: string): void {
    const o = this.state.timeline.outbox.find((x) => x.clientId === clientId);
    if (o) void this.transmit(o);
  }

  private resend(): void {
    for (const o of tl.unacked(this.state.timeline)) void this.transmit(o);
  }

  /** The 转人工 button: the robot's chat goes to a human; the ack says where it stands now. */
  async toHuman(): Promise<void> {
    const s = this.socket;
    if (!s?.connected || !this.state.robot) return;
    try {
      const res = (await s.timeout(ACK_TIMEOUT).emitWithAck('handoff', {})) as Ack<VisitorNewResult>;
      if (!res.success) {
        this.set({ error: res.msg });
        return;
      }
      const r = res.data;
      this.set({ status: r.status, robot: r.robot ?? null, agent: r.agent, position: r.position });
    } catch {
      this.set({ error: t('errNetwork') });
    }
  }

  writing(draft: string): void {
    if (this.socket?.connected && this.state.status === 'inservice' && !this.state.robot)
      this.socket.emit('writing', { message: draft.slice(0, 500) });
  }

  withdraw(id: string): void {
    this.socket?.emit('withdraw', { id }, (res) => {
      if (res.success) this.setTl((x) => tl.withdrawMessage(x, res.data));
      else this.set({ error: res.msg });
    });
  }

  end(): void {
    this.socket?.emit('end', {}, () => undefined);
  }

  private ended(agentserviceid: string, message: string): void {
    // Only a conversation an agent took part in is rated at its end.
    const served = this.state.agent !== null;
    this.setTl((x) => tl.removeNotice(x, `queue:${agentserviceid}`));
    this.set({ status: 'end', typing: false, position: null, robot: null });
    this.notice(`end:${agentserviceid}`, message || t('ended'));
    if (served && this.state.serverConfig?.satisfaction !== false) this.askRating(agentserviceid, '');
  }

  askRating(agentserviceid: string, message: string): void {
    if (!agentserviceid || this.state.rated.includes(agentserviceid)) return;
    this.set({ rating: { agentserviceid, message } });
  }

  rated(agentserviceid: string | null): void {
    this.set({
      rating: null,
      rated: agentserviceid ? [...this.state.rated, agentserviceid] : this.state.rated,
    });
  }

  dismiss(patch: Partial<Pick<ChatState, 'leavemsg' | 'error'>>): void {
    this.set(patch);
  }

  /** After the end: a fresh conversation in the same page. */
  restart(): void {
    this.set({ status: 'none', agent: null, robot: null, rating: null, leavemsg: null });
    this.setTl((x) => ({ ...tl.follow(x, null), outbox: [] }));
    this.onIdle();
  }
}
