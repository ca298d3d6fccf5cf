import { userDisplayName } from '@kefu/protocol';
import type { MonitorAlertDto } from '@kefu/protocol';
import { monitorRoom } from '../../platform/realtime/rooms.js';
import type { Engine } from '../conversation/engine.js';
import type { MonitorFeed } from './feed.js';
import * as repo from './monitor.repository.js';
import { overdue, replyLimits } from './monitor.service.js';
import type { Scope } from './monitor.scope.js';

/**
 * Alerts to the supervisors watching on this node (each node answers its own sockets, so an alert is
 * sent once per supervisor however many nodes there are): a visitor waiting for a reply longer than the
 * group's limit, a visitor waiting in the queue longer than `queuealert`, an agent busy longer than
 * `busyalert`. Each condition is alerted once per episode (a new visitor line, a new queue entry, a new
 * busy spell start a new one).
 */
export class AlertSweep {
  private sent = new Set<string>();

  constructor(
    private readonly e: Engine,
    private readonly feed: MonitorFeed,
  ) {}

  async run(): Promise<void> {
    const rooms = this.feed.localRooms();
    if (rooms.length === 0) {
      this.sent.clear();
      return;
    }
    const still = new Set<string>();
    for (const r of rooms) {
      const scope: Scope = r.organ
        ? { kind: 'organ', orgi: r.orgi, organ: r.organ }
        : { kind: 'all', orgi: r.orgi };
      for (const a of await this.find(scope)) {
        const key = `${monitorRoom(r.orgi, r.organ)}|${a.type}|${a.agentserviceid ?? a.agentno}|${a.since}`;
        still.add(key);
        if (this.sent.has(key)) continue;
        this.sent.add(key);
        this.e.rt.agents.local.to(monitorRoom(r.orgi, r.organ)).emit('monitor_alert', a);
      }
    }
    // Conditions that ended are forgotten, so the set stays the size of what is alerted now.
    this.sent = new Set([...this.sent].filter((k) => still.has(k)));
  }

  private async find(scope: Scope): Promise<MonitorAlertDto[]> {
    const k = this.e.db.kysely;
    const now = this.e.clock.now();
    const limits = await replyLimits(this.e, scope.orgi);
    const rules = limits.rules;
    const out: MonitorAlertDto[] = [];
    const alert = (
      type: MonitorAlertDto['type'],
      w: Pick<MonitorAlertDto, 'agentserviceid' | 'agentno' | 'agentname' | 'username' | 'organ' | 'since'>,
      limit: number,
    ) => out.push({ type, ...w, limit, createtime: now });
    for (const w of await overdue(this.e, scope, limits))
      alert('reply', { ...chat(w), since: w.since }, limits.of(w.organ) / 1000);
    const queueLimits = rules.list.map((r) => r.queuealert).filter((n) => n > 0);
    if (queueLimits.length) {
      for (const w of await repo.waitingBefore(k, scope, 'queue', now - Math.min(...queueLimits) * 1000)) {
        const limit = rules.of(w.organ).queuealert;
        if (limit > 0 && now - w.since > limit * 1000) alert('queue', { ...chat(w), since: w.since }, limit);
      }
    }
    const busy = (await repo.scopeAgents(k, scope)).filter((a) => a.status === 'busy');
    const since = await repo.stateTimes(
      k,
      busy.map((a) => a.userid),
    );
    for (const a of busy) {
      const limit = rules.of(a.organ).busyalert;
      const t = since.get(a.userid) ?? Number(a.updatetime);
      if (limit > 0 && now - t > limit * 1000)
        alert(
          'busy',
          {
            agentserviceid: null,
            agentno: a.userid,
            agentname: userDisplayName(a),
            username: '',
            organ: a.organ,
            since: t,
          },
          limit,
        );
    }
    return out;
  }
}

const chat = (w: repo.Waiting) => ({
  agentserviceid: w.id,
  agentno: w.agentno,
  agentname: w.agentusername,
  username: w.username,
  organ: w.organ,
});
