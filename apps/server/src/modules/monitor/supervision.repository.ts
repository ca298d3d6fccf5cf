import { MONITOR_RULE_DEFAULTS, type MonitorAction, type MonitorRuleDto } from '@kefu/protocol';
import { sql, type Selectable } from 'kysely';
import type {
  ChatWhisperTable,
  MonitorAuditTable,
  MonitorRuleTable,
} from '../../platform/db/schema-monitor.js';
import { newTimeId } from '../../platform/ids.js';
import type { Kdb } from '../conversation/engine.js';
import { organAgentsSql, type Scope } from './monitor.scope.js';

/** SQL of the supervision records: audit trail, whispers, per-group rules, ring-no-answer misses. */

export type AuditRow = Selectable<MonitorAuditTable>;
export type WhisperRow = Selectable<ChatWhisperTable>;

export interface AuditEntry {
  orgi: string;
  userid: string;
  username: string;
  action: MonitorAction;
  agentserviceid?: string | null;
  target?: string | null;
  organ?: string | null;
  detail?: string;
  createtime: number;
}

export async function insertAudit(k: Kdb, a: AuditEntry): Promise<void> {
  await k
    .insertInto('monitor_audit')
    .values({
      id: newTimeId(a.createtime),
      orgi: a.orgi,
      userid: a.userid,
      username: a.username,
      action: a.action,
      agentserviceid: a.agentserviceid ?? null,
      target: a.target ?? null,
      organ: a.organ ?? null,
      detail: a.detail ?? '',
      createtime: a.createtime,
    })
    .execute();
}

/** Audit records in scope, newest first; an organ scope sees records of its group and its agents. */
export async function auditPage(
  k: Kdb,
  scope: Scope,
  q: { agentserviceid?: string; p: number; ps: number },
): Promise<{ list: AuditRow[]; total: number }> {
  let base = k.selectFrom('monitor_audit').where('orgi', '=', scope.orgi);
  if (q.agentserviceid) base = base.where('agentserviceid', '=', q.agentserviceid);
  if (scope.kind === 'organ') {
    const organ = scope.organ;
    base = base.where(
      sql<boolean>`(organ = ${organ} or target in ${organAgentsSql(organ)} or userid in ${organAgentsSql(organ)})`,
    );
  }
  const [count, list] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    base
      .selectAll()
      .orderBy('createtime', 'desc')
      .orderBy('id', 'desc')
      .limit(q.ps)
      .offset((q.p - 1) * q.ps)
      .execute(),
  ]);
  return { list, total: Number(count?.n ?? 0) };
}

export const findWhisper = (k: Kdb, sender: string, clientId: string) =>
  k
    .selectFrom('chat_whisper')
    .selectAll()
    .where('sender', '=', sender)
    .where('client_id', '=', clientId)
    .executeTakeFirst();

export async function insertWhisper(k: Kdb, w: Omit<WhisperRow, 'id'>): Promise<WhisperRow> {
  const row = { ...w, id: newTimeId(w.createtime) };
  await k.insertInto('chat_whisper').values(row).execute();
  return row;
}

/** A conversation's whispers in order (bounded: a chat holds a handful). */
export const whispersOf = (k: Kdb, agentserviceid: string, limit = 500) =>
  k
    .selectFrom('chat_whisper')
    .selectAll()
    .where('agentserviceid', '=', agentserviceid)
    .orderBy('createtime')
    .orderBy('id')
    .limit(limit)
    .execute();

type RuleRow = Selectable<MonitorRuleTable>;

const toRule = (organ: string, r: RuleRow | undefined): MonitorRuleDto => ({
  organ,
  ringtimeout: r ? Number(r.ringtimeout) : MONITOR_RULE_DEFAULTS.ringtimeout,
  ringmisses: r ? Number(r.ringmisses) : MONITOR_RULE_DEFAULTS.ringmisses,
  replyalert: r ? Number(r.replyalert) : MONITOR_RULE_DEFAULTS.replyalert,
  queuealert: r ? Number(r.queuealert) : MONITOR_RULE_DEFAULTS.queuealert,
  busyalert: r ? Number(r.busyalert) : MONITOR_RULE_DEFAULTS.busyalert,
  updatetime: r ? Number(r.updatetime) : null,
});

/** The tenant's rules by organ ('' = default); a group without a row takes the default's values. */
export interface Rules {
  of(organ: string | null): MonitorRuleDto;
  list: MonitorRuleDto[];
}
export async function loadRules(k: Kdb, orgi: string): Promise<Rules> {
  const rows = await k.selectFrom('monitor_rule').selectAll().where('orgi', '=', orgi).execute();
  const byOrgan = new Map(rows.map((r) => [r.organ, r]));
  const base = toRule('', byOrgan.get(''));
  const list = [base, ...rows.filter((r) => r.organ !== '').map((r) => toRule(r.organ, r))];
  const of = (organ: string | null): MonitorRuleDto => {
    const own = organ ? byOrgan.get(organ) : undefined;
    return own ? toRule(organ ?? '', own) : { ...base, organ: organ ?? '' };
  };
  return { of, list };
}

export async function saveRule(
  k: Kdb,
  orgi: string,
  rule: Omit<MonitorRuleDto, 'updatetime'>,
  now: number,
): Promise<void> {
  const values = { ...rule, orgi, updatetime: now };
  await k
    .insertInto('monitor_rule')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['orgi', 'organ']).doUpdateSet({
        ringtimeout: rule.ringtimeout,
        ringmisses: rule.ringmisses,
        replyalert: rule.replyalert,
        queuealert: rule.queuealert,
        busyalert: rule.busyalert,
        updatetime: now,
      }),
    )
    .execute();
}

/** Whether any tenant has ring-no-answer switched on (the sweep skips everything otherwise). */
export async function anyRingRule(k: Kdb): Promise<boolean> {
  const r = await k.selectFrom('monitor_rule').select('orgi').where('ringtimeout', '>', 0).executeTakeFirst();
  return !!r;
}

export const ringOf = (k: Kdb, userid: string) =>
  k.selectFrom('agent_ring').selectAll().where('userid', '=', userid).executeTakeFirst();

/**
 * Counts one more miss in one statement (two nodes counting misses of the same agent both count), starting
 * over when the agent answered a chat since its last miss; returns the count.
 */
export async function countMiss(
  k: Kdb,
  orgi: string,
  userid: string,
  now: number,
  answeredSinceLast: boolean,
): Promise<number> {
  const r = await k
    .insertInto('agent_ring')
    .values({ userid, orgi, misses: 1, lastmiss: now })
    .onConflict((oc) =>
      oc.column('userid').doUpdateSet({
        misses: answeredSinceLast ? 1 : sql<number>`agent_ring.misses + 1`,
        lastmiss: now,
      }),
    )
    .returning('misses')
    .executeTakeFirstOrThrow();
  return Number(r.misses);
}

export async function resetMisses(k: Kdb, userid: string): Promise<void> {
  await k.updateTable('agent_ring').set({ misses: 0 }).where('userid', '=', userid).execute();
}

/** The agent replied on one of its chats after `since` (a miss streak is broken by an answer). */
export async function answeredSince(k: Kdb, userid: string, since: number): Promise<boolean> {
  const r = await k
    .selectFrom('agent_service')
    .select('id')
    .where('agentno', '=', userid)
    .where('lastgetmessage', '>', since)
    .executeTakeFirst();
  return !!r;
}
