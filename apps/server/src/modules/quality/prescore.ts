import type { QualityRule, QualitySettingsDto } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { newTimeId } from '../../platform/ids.js';
import type { Kdb } from './quality.repository.js';
import { settings } from './scorecard.service.js';

/**
 * Automatic pre-scoring of ended conversations: what a machine can see, each finding citing the messages
 * and the rule. Kept apart from the inspector's score (quality_finding, and per conversation the summed
 * suggested points in quality_conv). Set-wise: four reads for a batch of conversations, two writes.
 */

/** Suggested deductions per rule (the inspector confirms or overrides them on the card). */
export const RULE_POINTS: Record<QualityRule, number> = {
  first_response: 2,
  silence: 2,
  sensitive: 5,
  satisfaction: 3,
  transfer: 0,
  greeting: 1,
  closing: 1,
  abandoned: 0,
  ai_handoff: 0,
};

export interface Line {
  id: string;
  /** true: an agent's reply (a person, not the robot); false: the visitor. */
  agent: boolean;
  createtime: number;
  text: string;
}

export interface ServiceFacts {
  id: string;
  orgi: string;
  servicetime: number | null;
  waittime: number;
  satisfaction: number;
  satislevel: string | null;
  trans: number;
  ai: number;
  foragent: number;
}

export interface Finding {
  rule: QualityRule;
  messageids: string[];
  value: number;
  detail: string;
  points: number;
}

const finding = (rule: QualityRule, messageids: string[], value: number, detail = ''): Finding => ({
  rule,
  messageids,
  value,
  detail,
  points: RULE_POINTS[rule],
});

const says = (lines: Line[], phrases: string[]) =>
  lines.some((l) => phrases.some((p) => l.text.toLowerCase().includes(p.toLowerCase())));

/** The rules over one conversation's lines (pure: the bench and the tests call it directly). */
export function findingsOf(
  s: ServiceFacts,
  lines: Line[],
  hits: Array<{ messageid: string; words: string }>,
  cfg: QualitySettingsDto,
): Finding[] {
  const out: Finding[] = [];
  const agentLines = lines.filter((l) => l.agent);
  // First response: the first visitor line after the agent took the chat, and the agent's first answer.
  const start = s.servicetime === null ? null : Number(s.servicetime);
  if (start !== null && cfg.firstResponseSec > 0) {
    const ask = lines.find((l) => !l.agent);
    if (ask) {
      const answer = lines.find((l) => l.agent && l.createtime >= ask.createtime);
      const from = Math.max(ask.createtime, start);
      const ms = answer ? answer.createtime - from : -1;
      if (!answer) out.push(finding('first_response', [ask.id], -1, 'no answer'));
      else if (ms > cfg.firstResponseSec * 1000) out.push(finding('first_response', [ask.id, answer.id], ms));
    }
  }
  // Longest agent silence: from a visitor line waiting for an answer to the agent's next line.
  if (cfg.silenceSec > 0) {
    let worst: { ms: number; ids: string[] } | null = null;
    let waiting: Line | null = null;
    for (const l of lines) {
      if (!l.agent) waiting ??= l;
      else if (waiting) {
        const ms = l.createtime - waiting.createtime;
        if (!worst || ms > worst.ms) worst = { ms, ids: [waiting.id, l.id] };
        waiting = null;
      }
    }
    if (worst && worst.ms > cfg.silenceSec * 1000) out.push(finding('silence', worst.ids, worst.ms));
  }
  if (hits.length) {
    const words = [...new Set(hits.flatMap((h) => h.words.split('\n')).filter(Boolean))];
    out.push(
      finding(
        'sensitive',
        [...new Set(hits.map((h) => h.messageid).filter(Boolean))],
        hits.length,
        words.join('、'),
      ),
    );
  }
  const level = Number(s.satisfaction) === 1 ? Number(s.satislevel) : 0;
  if (cfg.lowSatisfaction > 0 && level >= cfg.lowSatisfaction) out.push(finding('satisfaction', [], level));
  if (Number(s.trans) > 0) out.push(finding('transfer', [], Number(s.trans)));
  if (cfg.greetings.length && agentLines.length) {
    const first = agentLines.slice(0, 3);
    if (!says(first, cfg.greetings))
      out.push(finding('greeting', [first[0]!.id], 0, cfg.greetings.join(' / ')));
  }
  if (cfg.closings.length && agentLines.length) {
    const last = agentLines.slice(-3);
    if (!says(last, cfg.closings))
      out.push(finding('closing', [last[last.length - 1]!.id], 0, cfg.closings.join(' / ')));
  }
  const aiOnly = Number(s.ai) === 1 && Number(s.foragent) !== 1;
  if (start === null && !aiOnly) out.push(finding('abandoned', [], Number(s.waittime)));
  if (Number(s.ai) === 1 && Number(s.foragent) === 1) out.push(finding('ai_handoff', [], 0));
  return out;
}

/** Appends to the list of a key. */
export function push<V>(m: Map<string, V[]>, key: string, v: V): void {
  const l = m.get(key);
  if (l) l.push(v);
  else m.set(key, [v]);
}

/** Reads what the rules need for a batch of ended conversations of one tenant or several. */
export async function readBatch(k: Kdb, ids: readonly string[]) {
  const services = (await k
    .selectFrom('agent_service')
    .select([
      'id',
      'orgi',
      'servicetime',
      'waittime',
      'satisfaction',
      'satislevel',
      'trans',
      'ai',
      'foragent',
    ])
    .where('id', 'in', ids)
    .where('status', '=', 'end')
    .execute()) as ServiceFacts[];
  if (!services.length)
    return {
      services,
      lines: new Map<string, Line[]>(),
      hits: new Map<string, Array<{ messageid: string; words: string }>>(),
    };
  const ended = services.map((s) => s.id);
  const [msgs, hitRows] = await Promise.all([
    k
      .selectFrom('chat_message')
      .leftJoin('users', 'users.id', 'chat_message.sender')
      .select([
        'chat_message.id',
        'chat_message.agentserviceid',
        'chat_message.calltype',
        'chat_message.createtime',
        'chat_message.message',
        'chat_message.withdrawn',
        'users.id as userid',
      ])
      .where('chat_message.agentserviceid', 'in', ended)
      .where('chat_message.type', '=', 'message')
      .orderBy('chat_message.agentserviceid')
      .orderBy('chat_message.seq')
      .execute(),
    k
      .selectFrom('sensitive_hit')
      .select(['agentserviceid', 'messageid', 'words'])
      .where('agentserviceid', 'in', ended)
      .where('side', '=', 'agent')
      .execute(),
  ]);
  const lines = new Map<string, Line[]>();
  for (const m of msgs) {
    const agent = m.calltype === 'out' && m.userid !== null;
    if (m.calltype !== 'in' && !agent) continue;
    push(lines, m.agentserviceid, {
      id: m.id,
      agent,
      createtime: Number(m.createtime),
      text: m.withdrawn === 1 ? '' : m.message,
    });
  }
  const hits = new Map<string, Array<{ messageid: string; words: string }>>();
  for (const h of hitRows) push(hits, h.agentserviceid, h);
  return { services, lines, hits };
}

/**
 * Pre-scores ended conversations (again: earlier findings are replaced). Returns how many were scored.
 */
export async function prescore(db: Db, ids: readonly string[], now = Date.now()): Promise<number> {
  if (!ids.length) return 0;
  const k = db.kysely;
  const { services, lines, hits } = await readBatch(k, ids);
  if (!services.length) return 0;
  const cfgs = new Map<string, QualitySettingsDto>();
  for (const orgi of new Set(services.map((s) => s.orgi))) cfgs.set(orgi, await settings(db, orgi));
  const findings: Array<{ s: ServiceFacts; f: Finding }> = [];
  for (const s of services)
    for (const f of findingsOf(s, lines.get(s.id) ?? [], hits.get(s.id) ?? [], cfgs.get(s.orgi)!))
      findings.push({ s, f });
  const scored = services.map((s) => s.id);
  const per = new Map<string, { points: number; rules: string[] }>();
  for (const { s, f } of findings) {
    const x = per.get(s.id) ?? { points: 0, rules: [] };
    x.points += f.points;
    x.rules.push(f.rule);
    per.set(s.id, x);
  }
  // Ids in one order: two nodes scoring overlapping batches lock the summary rows in the same order.
  const ordered = [...services].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await k.transaction().execute(async (trx) => {
    // The summary upsert first: it locks each conversation's row, so a second scoring of the same
    // conversation at the same time (the ending node's queue and a sweep, two sweeps) waits here and then
    // replaces these findings instead of adding its own beside them.
    for (let i = 0; i < services.length; i += 500)
      await trx
        .insertInto('quality_conv')
        .values(
          ordered.slice(i, i + 500).map((s) => ({
            agentserviceid: s.id,
            orgi: s.orgi,
            autopoints: per.get(s.id)?.points ?? 0,
            rules: (per.get(s.id)?.rules ?? []).join(','),
            scanned: 1,
            excluded: 0,
            updatetime: now,
          })),
        )
        .onConflict((oc) =>
          oc.column('agentserviceid').doUpdateSet((eb) => ({
            autopoints: eb.ref('excluded.autopoints'),
            rules: eb.ref('excluded.rules'),
            scanned: 1,
            updatetime: now,
          })),
        )
        .execute();
    await trx.deleteFrom('quality_finding').where('agentserviceid', 'in', scored).execute();
    for (let i = 0; i < findings.length; i += 500)
      await trx
        .insertInto('quality_finding')
        .values(
          findings.slice(i, i + 500).map(({ s, f }) => ({
            id: newTimeId(now),
            orgi: s.orgi,
            agentserviceid: s.id,
            rule: f.rule,
            messageids: JSON.stringify(f.messageids),
            value: f.value,
            detail: f.detail.slice(0, 500),
            points: f.points,
            createtime: now,
          })),
        )
        .execute();
    // An inspection allotted before the scan sees the automatic points too.
    for (const s of services)
      await trx
        .updateTable('quality_inspection')
        .set({ autopoints: per.get(s.id)?.points ?? 0 })
        .where('agentserviceid', '=', s.id)
        .execute();
  });
  return services.length;
}

/**
 * Queues pre-scoring off the hot path: the conversation module reports an end after its commit; the ids
 * wait here and are scored in batches on the next tick (never inside the ending call).
 */
export function prescoreQueue(db: Db, onError: (err: unknown) => void) {
  const pending = new Set<string>();
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const run = async () => {
    timer = null;
    while (pending.size) {
      const batch = [...pending].slice(0, 200);
      for (const id of batch) pending.delete(id);
      await prescore(db, batch).catch(onError);
    }
  };
  const kick = () => {
    if (timer || running) return;
    timer = setTimeout(() => {
      running = run().finally(() => {
        running = null;
        if (pending.size) kick();
      });
    }, 20);
  };
  return {
    add(id: string) {
      pending.add(id);
      kick();
    },
    async drain() {
      if (timer) {
        clearTimeout(timer);
        timer = null;
        running = run().finally(() => (running = null));
      }
      await running;
    },
  };
}
