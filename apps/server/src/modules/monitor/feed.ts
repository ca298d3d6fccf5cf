import type { Namespace } from 'socket.io';
import {
  MONITOR_UPDATE_INTERVAL_MS,
  type MessageDto,
  type MonitorAgentDto,
  type MonitorAlertDto,
  type MonitorMessagePatch,
  type MonitorUpdateDto,
} from '@kefu/protocol';
import { monitorRoom } from '../../platform/realtime/rooms.js';
import type { Engine } from '../conversation/engine.js';
import { listenChanges } from '../conversation/changes.js';
import * as repo from './monitor.repository.js';
import { messagePatch, presentAgent, presentChat } from './monitor.presenter.js';
import { replyLimits, scopeCounters } from './monitor.service.js';
import type { Scope } from './monitor.scope.js';

/** Counters are re-counted at most this often per tenant (the rest of an update goes every window). */
const COUNTERS_MIN_MS = 1_000;
/** A remote node's watch heartbeat holds this long (it repeats every sweep, 5 s). */
const REMOTE_WATCH_MS = 15_000;
/** Bound of the chat-placement cache (cleared when full; refilled on demand). */
const META_MAX = 50_000;
/** Server-side event between nodes: "supervisors watch these rooms here". */
const WATCH_EVENT = 'monitor_watch';

/** Where a live conversation belongs, to decide which supervisors may see its changes. */
interface Placement {
  orgi: string;
  organ: string | null;
  agentno: string | null;
}

interface Batch {
  chats: Array<{ row: repo.ChatRow; prev: Placement | undefined }>;
  messages: Array<{ patch: MonitorMessagePatch; at: Placement }>;
  agents: MonitorAgentDto[];
}

/** Room key: tenant and organ ('' = the whole tenant). */
const roomKey = (orgi: string, organ: string): string => `${orgi}\n${organ}`;
const splitKey = (key: string): [string, string] => {
  const i = key.indexOf('\n');
  return [key.slice(0, i), key.slice(i + 1)];
};

/**
 * The live monitor feed. The conversation module reports changes (changes.ts); while some supervisor
 * watches (on this node or, with Redis, on another: heartbeats between nodes) the feed notes the ids and,
 * once per MONITOR_UPDATE_INTERVAL_MS window, reads what changed in a few batched queries and emits one
 * `monitor_update` per watched room, each filtered to the room's scope. A message costs a map write; a
 * window costs O(changes), never a read of every live chat. Nobody watching: every report returns at once.
 * Each node publishes the changes it handled; rooms span nodes through the adapter.
 */
export class MonitorFeed {
  private readonly local = new Map<string, number>();
  private readonly remote = new Map<string, number>();
  private active = false;
  private chats = new Map<string, string>();
  private agents = new Map<string, string>();
  private messages = new Map<string, MonitorMessagePatch>();
  /** Tenants whose counters are due. */
  private due = new Set<string>();
  private readonly countedAt = new Map<string, number>();
  private readonly placements = new Map<string, Placement>();
  private readonly agentOrgans = new Map<string, string[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushing = false;

  constructor(private readonly e: Engine) {
    listenChanges(e, {
      chat: (orgi, id) => {
        if (!this.active) return;
        this.chats.set(id, orgi);
        this.due.add(orgi);
        this.schedule();
      },
      agent: (orgi, userid) => {
        if (!this.active) return;
        this.agents.set(userid, orgi);
        this.schedule();
      },
      message: (m) => {
        if (this.active) this.noteMessage(m);
      },
    });
    // Server-side events are outside the typed client event maps; the payload is a list of room keys.
    (e.rt.agents as unknown as Namespace).on(WATCH_EVENT, (keys: unknown) => {
      if (!Array.isArray(keys)) return;
      const until = Date.now() + REMOTE_WATCH_MS;
      for (const k of keys) if (typeof k === 'string') this.remote.set(k, until);
      this.refresh();
    });
  }

  /** A socket here starts watching a scope. */
  watch(scope: Scope): void {
    const k = roomKey(scope.orgi, scope.kind === 'organ' ? scope.organ : '');
    this.local.set(k, (this.local.get(k) ?? 0) + 1);
    const first = !this.active;
    this.refresh();
    if (first || this.local.get(k) === 1) this.heartbeat();
  }

  unwatch(scope: Scope): void {
    const k = roomKey(scope.orgi, scope.kind === 'organ' ? scope.organ : '');
    const n = (this.local.get(k) ?? 0) - 1;
    if (n > 0) this.local.set(k, n);
    else this.local.delete(k);
    this.refresh();
  }

  /** Rooms watched on this node (the alert sweep answers only its own sockets). */
  localRooms(): Array<{ orgi: string; organ: string | null }> {
    return [...this.local.keys()].map((k) => {
      const [orgi, organ] = splitKey(k);
      return { orgi, organ: organ || null };
    });
  }

  /** Every few seconds: remote watches expire, counters refresh (waiting times grow), heartbeat. */
  tick(): void {
    const now = Date.now();
    for (const [k, until] of this.remote) if (until < now) this.remote.delete(k);
    this.refresh();
    if (!this.active) return;
    for (const k of this.watchedKeys()) this.due.add(splitKey(k)[0]);
    this.schedule();
    this.heartbeat();
  }

  /** An alert to the supervisors of a conversation's (or agent's) scope, on every node. */
  alert(orgi: string, at: { organ: string | null; agentno: string | null }, dto: MonitorAlertDto): void {
    for (const room of this.roomsFor(orgi, at, [...this.watchedKeys()]))
      this.e.rt.agents.to(room).emit('monitor_alert', dto);
  }

  /** The rooms (of `keys`) whose scope covers a conversation placed like `at`. */
  roomsFor(orgi: string, at: { organ: string | null; agentno: string | null }, keys: string[]): string[] {
    const out: string[] = [];
    for (const k of keys) {
      const [o, organ] = splitKey(k);
      if (o === orgi && this.inRoom(organ, at)) out.push(monitorRoom(orgi, organ || null));
    }
    return out;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private watchedKeys(): Set<string> {
    return new Set([...this.local.keys(), ...this.remote.keys()]);
  }

  private refresh(): void {
    this.active = this.local.size > 0 || this.remote.size > 0;
    if (!this.active) {
      this.chats.clear();
      this.agents.clear();
      this.messages.clear();
      this.due.clear();
    }
  }

  private heartbeat(): void {
    if (!this.e.rt.clustered || this.local.size === 0) return;
    (this.e.rt.agents as unknown as Namespace).serverSideEmit(WATCH_EVENT, [...this.local.keys()]);
  }

  private noteMessage(m: MessageDto): void {
    const p = messagePatch(m);
    const was = this.messages.get(m.agentserviceid);
    if (was) {
      was.lastmsg = p.lastmsg;
      if (p.lastmessage !== null) was.lastmessage = p.lastmessage;
      if (p.lastgetmessage !== null) was.lastgetmessage = p.lastgetmessage;
    } else this.messages.set(m.agentserviceid, p);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.e.closing.value) return;
    this.timer = setTimeout(() => void this.flush(), MONITOR_UPDATE_INTERVAL_MS);
    this.timer.unref?.();
  }

  private async flush(): Promise<void> {
    this.timer = null;
    if (this.flushing) return this.schedule();
    this.flushing = true;
    const { chats, agents, messages, due } = this;
    this.chats = new Map();
    this.agents = new Map();
    this.messages = new Map();
    this.due = new Set();
    try {
      await this.publish(chats, agents, messages, due);
    } catch (err) {
      if (!this.e.closing.value) console.error('monitor feed failed', err);
    } finally {
      this.flushing = false;
      if (this.chats.size || this.agents.size || this.messages.size || this.due.size) this.schedule();
    }
  }

  private async publish(
    chats: Map<string, string>,
    agents: Map<string, string>,
    messages: Map<string, MonitorMessagePatch>,
    due: Set<string>,
  ): Promise<void> {
    const k = this.e.db.kysely;
    const batches = new Map<string, Batch>();
    const batch = (orgi: string): Batch => {
      let b = batches.get(orgi);
      if (!b) batches.set(orgi, (b = { chats: [], messages: [], agents: [] }));
      return b;
    };
    for (const r of await repo.chatsById(k, [...chats.keys()])) {
      const prev = this.placements.get(r.id);
      if (r.status === 'end') this.placements.delete(r.id);
      else this.place(r.id, r);
      batch(r.orgi).chats.push({ row: r, prev });
      if (prev?.agentno) agents.set(prev.agentno, r.orgi);
      if (r.agentno) agents.set(r.agentno, r.orgi);
    }
    const unknown = [...messages.keys()].filter((id) => !this.placements.has(id));
    for (const m of await repo.chatMetas(k, unknown)) if (m.status !== 'end') this.place(m.id, m);
    for (const [id, patch] of messages) {
      const at = this.placements.get(id);
      if (at) batch(at.orgi).messages.push({ patch, at });
    }
    const rows = await repo.agentsById(k, [...agents.keys()]);
    const ids = rows.map((a) => a.userid);
    const [members, since] = await Promise.all([repo.memberships(k, ids), repo.stateTimes(k, ids)]);
    for (const a of rows) {
      const dto = presentAgent(a, members.get(a.userid) ?? [], since.get(a.userid));
      this.agentOrgans.set(a.userid, dto.organs);
      batch(a.orgi).agents.push(dto);
    }
    await this.learnAgents(batches);
    const now = Date.now();
    for (const orgi of due) {
      if (now - (this.countedAt.get(orgi) ?? 0) >= COUNTERS_MIN_MS) batch(orgi);
      else this.due.add(orgi); // counted a moment ago: the next window does it
    }
    for (const [orgi, b] of batches) {
      const counters = due.has(orgi) && !this.due.has(orgi);
      if (counters) this.countedAt.set(orgi, now);
      await this.emit(orgi, b, counters);
    }
  }

  private place(id: string, p: Placement): void {
    if (this.placements.size >= META_MAX) this.placements.clear();
    this.placements.set(id, { orgi: p.orgi, organ: p.organ, agentno: p.agentno });
  }

  /** Departments of the agents serving the batch's chats, for organ-room filtering. */
  private async learnAgents(batches: Map<string, Batch>): Promise<void> {
    const need = new Set<string>();
    for (const b of batches.values()) {
      for (const c of b.chats) for (const a of [c.row.agentno, c.prev?.agentno]) if (a) need.add(a);
      for (const m of b.messages) if (m.at.agentno) need.add(m.at.agentno);
    }
    const missing = [...need].filter((a) => !this.agentOrgans.has(a));
    if (missing.length === 0) return;
    if (this.agentOrgans.size >= META_MAX) this.agentOrgans.clear();
    const k = this.e.db.kysely;
    const [users, members] = await Promise.all([
      k.selectFrom('users').select(['id', 'organ']).where('id', 'in', missing).execute(),
      repo.memberships(k, missing),
    ]);
    for (const u of users)
      this.agentOrgans.set(u.id, [...(u.organ ? [u.organ] : []), ...(members.get(u.id) ?? [])]);
  }

  /** A room of organ '' sees the whole tenant; an organ room its group's chats and its agents' chats. */
  private inRoom(organ: string, at: { organ: string | null; agentno: string | null }): boolean {
    if (!organ || at.organ === organ) return true;
    return !!at.agentno && (this.agentOrgans.get(at.agentno) ?? []).includes(organ);
  }

  private async emit(orgi: string, b: Batch, counters: boolean): Promise<void> {
    const organs = [...this.watchedKeys()].map(splitKey).filter(([o]) => o === orgi);
    if (organs.length === 0) return;
    const k = this.e.db.kysely;
    const live = b.chats.filter((c) => c.row.status !== 'end');
    const names = live.length ? new Map((await repo.organsOf(k, orgi)).map((o) => [o.id, o.name])) : null;
    const limits = live.length ? await replyLimits(this.e, orgi) : null;
    const now = this.e.clock.now();
    const presented = live.map((c) => ({
      c,
      dto: presentChat(c.row, now, limits?.of(c.row.organ) ?? 0, (id) => (id ? (names?.get(id) ?? '') : '')),
    }));
    for (const [, organ] of organs) {
      const scope: Scope = organ ? { kind: 'organ', orgi, organ } : { kind: 'all', orgi };
      const has = (at: Placement | repo.ChatRow | undefined) => !!at && this.inRoom(organ, at);
      const update: MonitorUpdateDto = {
        chats: presented.filter((x) => has(x.c.row)).map((x) => x.dto),
        // Gone from this room: ended, or moved out of its scope (only where it was seen before).
        removed: b.chats
          .filter((c) => (c.row.status === 'end' ? has(c.row) || has(c.prev) : has(c.prev) && !has(c.row)))
          .map((c) => c.row.id),
        messages: b.messages.filter((m) => has(m.at)).map((m) => m.patch),
        agents: b.agents.filter((a) => !organ || a.organs.includes(organ)),
        counters: counters ? await scopeCounters(this.e, scope) : null,
        createtime: now,
      };
      const empty =
        !update.counters &&
        update.chats.length + update.removed.length + update.messages.length + update.agents.length === 0;
      if (!empty) this.e.rt.agents.to(monitorRoom(orgi, organ || null)).emit('monitor_update', update);
    }
  }
}
