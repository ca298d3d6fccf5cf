import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { newTimeId } from '../../platform/ids.js';
import type { StateChange, StatsListener, VisitStart } from './hooks.js';
import { conversationFacts } from './facts.js';
import { applyBumps, Bumps, decodeFacts, encodeFacts, type WorkCol } from './contribution.js';
import { describeVisit } from './visit-info.js';
import { dayStart, localParts, splitByDay } from './zone.js';
import { tenantZone } from './tenant-zone.js';

/** Not-ready entered for these reasons means the agent left (socket gone, signed out): not counted. */
export const OFFLINE_REASONS: ReadonlySet<string> = new Set(['disconnect', 'heartbeat', 'revoked', 'rights']);

export interface AgentLast {
  status: string;
  reason: string;
  since: number;
}

/**
 * The time an agent spent in `prev` until `until` (docs/metrics.md "Work"): ready and busy count whole
 * (split at local midnights); not-ready counts only as a pause the agent came back from (to ready or busy)
 * on the same local day, and never when it began with the agent leaving.
 */
export function stateTime(
  prev: AgentLast,
  until: number,
  next: string | null,
  tz: string,
  add: (day: number, col: WorkCol, ms: number) => void,
): void {
  if (until <= prev.since) return;
  if (prev.status === 'ready' || prev.status === 'busy') {
    const col = prev.status === 'ready' ? 'ready_ms' : 'busy_ms';
    splitByDay(prev.since, until, tz, (day, ms) => add(day, col, ms));
    return;
  }
  if (prev.status !== 'notready' || OFFLINE_REASONS.has(prev.reason)) return;
  if (next !== 'ready' && next !== 'busy') return;
  const from = localParts(prev.since, tz).day;
  if (from === localParts(until - 1, tz).day) add(from, 'notready_ms', until - prev.since);
}

/** The bumps of one visit: its rows in stat_visit_day (all + each dimension) and stat_visit_hour. */
export function visitBumps(
  b: Bumps,
  orgi: string,
  v: {
    appid: string;
    day: number;
    hour: number;
    province: string;
    country: string;
    city: string;
    browser: string;
    os: string;
    engine: string;
    keyword: string;
  },
  firstOfDay: boolean,
): void {
  const region = v.province || v.country;
  const base = { orgi, day: v.day, appid: v.appid };
  b.add('stat_visit_day', { ...base, kind: 'all', value: '' }, { visits: 1, visitors: firstOfDay ? 1 : 0 });
  const dims: Array<[string, string]> = [
    ['province', region],
    ['city', v.city || region],
    ['browser', v.browser],
    ['os', v.os],
    ['engine', v.engine],
  ];
  if (v.engine) dims.push(['keyword', v.keyword]);
  for (const [kind, value] of dims) b.add('stat_visit_day', { ...base, kind, value }, { visits: 1 });
  b.add('stat_visit_hour', { ...base, hour: v.hour }, { visits: 1 });
}

/** PostgreSQL: lock the row for the rest of the transaction (SQLite's writer lock already serialises). */
const forUpdate = (db: Db) => (db.dialect === 'postgres' ? sql` for update` : sql``);

/**
 * Keeps the rollups in step with the raw data on this node. Hooks (hooks.ts) only queue; one worker
 * applies the queue in small transactions after the callers' commits. Each conversation is applied by
 * difference with what it had contributed before (stat_conv.facts), so applying it twice, or again after
 * a rating or a tag, leaves every rollup equal to the sum of the stored facts.
 */
export class Rollups implements StatsListener {
  private readonly convs = new Map<string, string>();
  private readonly jobs: Array<() => Promise<void>> = [];
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Failures are logged, never thrown at the callers. */
  onError: (err: unknown) => void = (err) => console.error('analysis rollup failed', err);

  constructor(private readonly db: Db) {}

  conversation(orgi: string, id: string): void {
    this.convs.set(id, orgi);
    this.kick();
  }

  agentState(row: StateChange): void {
    this.jobs.push(() => this.applyAgentState(row));
    this.kick();
  }

  visit(v: VisitStart): void {
    this.jobs.push(() => this.applyVisit(v));
    this.kick();
  }

  invite(orgi: string, inviteid: string, answered: 'accept' | 'refuse' | null): void {
    this.jobs.push(() => this.applyInvite(orgi, inviteid, answered));
    this.kick();
  }

  /** Resolves once everything queued so far is applied (tests, shutdown, the bench). */
  async idle(): Promise<void> {
    while (this.running || this.convs.size || this.jobs.length) {
      this.kick();
      await this.running;
    }
  }

  stop(): void {
    this.stopped = true;
  }

  private kick(): void {
    if (this.running || this.stopped) return;
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .finally(() => {
        this.running = null;
        if (this.convs.size || this.jobs.length) this.kick();
      });
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (this.jobs.length || this.convs.size)) {
      const job = this.jobs.shift();
      if (job) {
        await job().catch(this.onError);
        continue;
      }
      // Conversations of one tenant at a time, up to 200 per transaction.
      const byOrg = new Map<string, string[]>();
      for (const [id, orgi] of this.convs) {
        const list = byOrg.get(orgi) ?? [];
        if (list.length < 200) list.push(id);
        byOrg.set(orgi, list);
      }
      const [orgi, ids] = byOrg.entries().next().value as [string, string[]];
      for (const id of ids) this.convs.delete(id);
      await this.applyConversations(orgi, ids).catch(this.onError);
    }
  }

  async applyConversations(orgi: string, ids: readonly string[]): Promise<void> {
    const tz = await tenantZone(this.db, orgi);
    const facts = await conversationFacts(this.db.kysely, ids, tz);
    const now = Date.now();
    await this.db.kysely.transaction().execute(async (trx) => {
      const bumps = new Bumps();
      for (const id of ids) {
        const next = facts.get(id) ?? null;
        await trx
          .insertInto('stat_conv')
          .values({ id, orgi, facts: '', updatetime: now })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        const row = (
          await sql<{
            facts: string;
          }>`select facts from stat_conv where id = ${id}${forUpdate(this.db)}`.execute(trx)
        ).rows[0];
        const prev = decodeFacts(row?.facts ?? '');
        if (prev) bumps.conversation(orgi, prev, -1);
        if (next) bumps.conversation(orgi, next, 1);
        if (next || prev)
          await trx
            .updateTable('stat_conv')
            .set({ facts: next ? encodeFacts(next) : '', updatetime: now })
            .where('id', '=', id)
            .execute();
      }
      await applyBumps(trx, bumps.effective());
    });
  }

  private async applyAgentState(row: StateChange): Promise<void> {
    const tz = await tenantZone(this.db, row.orgi);
    await this.db.kysely.transaction().execute(async (trx) => {
      const prev = (
        await sql<AgentLast>`select status, reason, since from stat_agent_last
          where userid = ${row.userid}${forUpdate(this.db)}`.execute(trx)
      ).rows[0];
      // A change older than the one already applied (two nodes) cannot be placed: keep the newer.
      if (prev && Number(prev.since) > row.createtime) return;
      const b = new Bumps();
      if (prev)
        stateTime({ ...prev, since: Number(prev.since) }, row.createtime, row.to_status, tz, (day, col, ms) =>
          b.agentTime(row.orgi, row.userid, day, col, ms),
        );
      await applyBumps(trx, b.effective());
      const last = { status: row.to_status, reason: row.reason, since: row.createtime };
      await trx
        .insertInto('stat_agent_last')
        .values({ userid: row.userid, orgi: row.orgi, ...last })
        .onConflict((oc) => oc.column('userid').doUpdateSet(last))
        .execute();
    });
  }

  private async applyVisit(v: VisitStart): Promise<void> {
    const tz = await tenantZone(this.db, v.orgi);
    const info = describeVisit(v.ip, v.userAgent, v.referrer);
    const { day, hour } = localParts(v.time, tz);
    await this.db.kysely.transaction().execute(async (trx) => {
      // A visitor counts once per access point and local day, whatever order its visits arrive in.
      const seen = await trx
        .selectFrom('visit')
        .select('id')
        .where('orgi', '=', v.orgi)
        .where('traceid', '=', v.traceid)
        .where('appid', '=', v.appid)
        .where('firsttime', '>=', dayStart(day, tz))
        .where('firsttime', '<', dayStart(day + 1, tz))
        .limit(1)
        .executeTakeFirst();
      await trx
        .insertInto('visit')
        .values({
          id: newTimeId(v.time),
          orgi: v.orgi,
          appid: v.appid,
          traceid: v.traceid,
          firsttime: v.time,
          day,
          hour,
          ip: v.ip.slice(0, 64),
          ...info,
        })
        .execute();
      const b = new Bumps();
      visitBumps(b, v.orgi, { appid: v.appid, day, hour, ...info }, !seen);
      await applyBumps(trx, b.effective());
    });
  }

  private async applyInvite(orgi: string, id: string, answered: 'accept' | 'refuse' | null): Promise<void> {
    if (answered === 'refuse') return;
    const inv = await this.db.kysely
      .selectFrom('invite_record')
      .select(['appid', 'agentno', 'createtime'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!inv) return;
    const tz = await tenantZone(this.db, orgi);
    const b = new Bumps();
    const key = {
      orgi,
      day: localParts(Number(inv.createtime), tz).day,
      appid: inv.appid,
      agentno: inv.agentno,
    };
    b.add('stat_invite_day', key, answered === 'accept' ? { accepted: 1 } : { invited: 1 });
    await applyBumps(this.db.kysely, b.effective());
  }

  /**
   * Conversations that ended since `since` and were never applied (the node that ended them stopped
   * before its queue ran): queued now. Returns how many.
   */
  async catchUp(since: number): Promise<number> {
    const rows = await this.db.kysely
      .selectFrom('agent_service as s')
      .leftJoin('stat_conv as c', 'c.id', 's.id')
      .select(['s.id', 's.orgi'])
      .where('s.endtime', '>=', since)
      .where('s.status', '=', 'end')
      .where('c.id', 'is', null)
      .limit(5_000)
      .execute();
    for (const r of rows) this.conversation(r.orgi, r.id);
    return rows.length;
  }
}
