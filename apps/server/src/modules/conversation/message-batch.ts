import type { Db, Dialect } from '../../platform/db/database.js';
import { heldSqliteTransaction, insertText, rawRows } from '../../platform/db/raw.js';
import type { ChatMessageRow } from './presenter.js';
import { isUniqueViolation } from './message.repository.js';
import {
  BatchPlan,
  kindOf,
  preview,
  type ConversationDelta,
  type ConversationState,
  type WriteJob,
  type Written,
} from './message-plan.js';
import type { Outcome } from './message-writer.js';

/**
 * A batch of messages written set-wise: the conversations read (and locked) once, seqs planned in memory,
 * then every row inserted and ONE update per conversation and per chat entry. Compared with writing
 * message by message this takes the per-message statements down to one INSERT (SQLite), or the whole
 * batch down to one statement (PostgreSQL). Everything commits together or nothing does; when this path fails
 * (PostgreSQL: any error, e.g. a resend hitting the unique index) the caller redoes the batch message by
 * message.
 */
export type BatchWriter = (
  jobs: WriteJob[],
  beforeCommit: (() => Promise<void>) | null,
) => Promise<Array<Outcome<Written>>>;

/** Column order of chat_message rows, with the PostgreSQL array type each is sent as. */
export const COLUMN_TYPES: Record<keyof ChatMessageRow, 'text' | 'integer' | 'bigint'> = {
  id: 'text',
  orgi: 'text',
  agentserviceid: 'text',
  seq: 'integer',
  sender: 'text',
  client_id: 'text',
  username: 'text',
  touser: 'text',
  usession: 'text',
  type: 'text',
  msgtype: 'text',
  calltype: 'text',
  message: 'text',
  attachmentid: 'text',
  filename: 'text',
  filesize: 'bigint',
  withdrawn: 'integer',
  withdrawn_at: 'bigint',
  readstatus: 'integer',
  createtime: 'bigint',
  tokens: 'text',
};
export const MESSAGE_COLUMNS = Object.keys(COLUMN_TYPES) as Array<keyof ChatMessageRow>;

/** A conversation's collaborators as one comma-separated value; `idRef` names its id column. */
export const collaboratorsSql = (dialect: Dialect, idRef: string): string =>
  `(select ${dialect === 'sqlite' ? 'group_concat' : 'string_agg'}(c.userid, ',') from agent_collaborator c ` +
  `where c.agentserviceid = ${idRef})`;
const COLLABS_SQLITE = collaboratorsSql('sqlite', 's.id');
const COLLABS_PG = collaboratorsSql('postgres', 's.id');

/** The per-conversation update (`d`: the batch's delta of that conversation). */
const SERVICE_SET =
  'lastseq = d.lastseq, userasks = a.userasks + d.ins, agentreplys = a.agentreplys + d.replies, ' +
  'lastmessage = coalesce(d.last_in, a.lastmessage), lastgetmessage = coalesce(d.last_reply, a.lastgetmessage), ' +
  'firstreplytime = coalesce(a.firstreplytime, d.first_reply), ' +
  'idle_warned = case when d.ins > 0 then 0 else a.idle_warned end, ' +
  'idle_warntime = case when d.ins > 0 then null else a.idle_warntime end, ' +
  'agent_warned = case when d.ins > 0 then 0 else a.agent_warned end';
const ENTRY_SET =
  'tokenum = u.tokenum + d.ins, lastmessage = coalesce(d.last_in, u.lastmessage), ' +
  'lastgetmessage = coalesce(d.last_reply, u.lastgetmessage), lastmsg = d.lastmsg, updatetime = d.updatetime';

const rowValues = (r: ChatMessageRow): unknown[] => MESSAGE_COLUMNS.map((c) => r[c]);

// ------------------------------------------------------------------------------------------- SQLite

// The SET clauses of PostgreSQL with named parameters in place of the delta's columns: a plain UPDATE with
// bound values (an UPDATE … FROM a one-row subquery cost SQLite a join per conversation).
const named = (set: string) => set.replace(/\bd\.(\w+)/g, '@$1');
const SQLITE = {
  state: `select s.id, s.status, s.agentno, s.lastseq, ${COLLABS_SQLITE} as collabs from agent_service s where s.id = ?`,
  insert: insertText('chat_message', MESSAGE_COLUMNS),
  service: `update agent_service as a set ${named(SERVICE_SET)} where a.id = @id`,
  entry: `update agent_user as u set ${named(ENTRY_SET)} where u.agentserviceid = @id returning tokenum`,
};

const deltaParams = (d: ConversationDelta) => ({
  id: d.id,
  lastseq: d.lastseq,
  ins: d.ins,
  replies: d.replies,
  last_in: d.lastIn,
  last_reply: d.lastReply,
  first_reply: d.firstReply,
  lastmsg: d.lastmsg,
  updatetime: d.updatetime,
});

/**
 * SQLite: the whole batch runs synchronously on the connection under Kysely (held, so nothing else is
 * inside a transaction on it), under BEGIN IMMEDIATE. A resend hitting the unique index fails only its
 * own INSERT (SQLite aborts the statement, not the transaction), so it is answered on its own and the
 * others commit; seqs stay gap-free because that step is taken back before the next is planned.
 */
export function sqliteBatchWriter(db: Db): BatchWriter {
  if (!db.sqlite) throw new Error('sqliteBatchWriter needs a SQLite database');
  return (jobs, beforeCommit) =>
    heldSqliteTransaction(db, async (stmt) => {
      const state = stmt(SQLITE.state);
      const insert = stmt(SQLITE.insert);
      const service = stmt(SQLITE.service);
      const entry = stmt(SQLITE.entry);
      const states = new Map<string, ConversationState>();
      const seen = new Set<string>();
      for (const j of jobs) {
        const sid = j.m.service.id;
        if (seen.has(sid)) continue;
        seen.add(sid);
        const st = state.get(sid) as ConversationState | undefined;
        if (st) states.set(sid, st);
      }
      const plan = new BatchPlan(states);
      const errors = new Map<number, unknown>();
      jobs.forEach((j, i) => {
        let seq: number | null;
        try {
          seq = plan.take(j);
        } catch (err) {
          errors.set(i, err);
          return;
        }
        if (seq === null) return;
        try {
          insert.run(rowValues(j.row));
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
          plan.undoLast();
          errors.set(i, err);
        }
      });
      const tokenum = new Map<string, number>();
      for (const d of plan.changes()) {
        service.run(deltaParams(d));
        const e = entry.get(deltaParams(d)) as { tokenum: number } | undefined;
        if (e) tokenum.set(d.id, Number(e.tokenum));
      }
      if (beforeCommit) await beforeCommit();
      return jobs.map((_, i): Outcome<Written> => {
        const err = errors.get(i);
        if (err !== undefined) return { ok: false, err };
        return { ok: true, value: plan.written(i, (sid) => tokenum.get(sid)) };
      });
    });
}

// ------------------------------------------------------------------------------------------- PostgreSQL

/** Per-job inputs of the PostgreSQL statement besides the row (seq is computed there). */
const JOB_INPUTS = [
  ['sid', 'text'],
  ['guard', 'text'],
  ['gagent', 'text'],
  ['kind', 'text'],
  ['now', 'bigint'],
  ['lastmsg', 'text'],
] as const;
const PG_ROW_COLUMNS = MESSAGE_COLUMNS.filter((c) => c !== 'seq');
const PG_INPUT_NAMES = [...JOB_INPUTS.map(([name]) => name), ...PG_ROW_COLUMNS];
const PG_INPUT_TYPES = [...JOB_INPUTS.map(([, type]) => type), ...PG_ROW_COLUMNS.map((c) => COLUMN_TYPES[c])];

/**
 * The whole batch as ONE statement (autocommit: one round trip). `c` locks the conversations in id order
 * (batches on different nodes queue behind each other, never deadlock; after waiting it sees the
 * committed lastseq), `g` checks each message's guard, `n` numbers the allowed ones per conversation in
 * arrival order, then the rows are inserted and each conversation and chat entry updated once. The
 * result has one line per job, in order. A resend hitting the unique index fails the statement (nothing
 * stored) and the caller goes message by message.
 */
const PG_BATCH =
  `with j as (select * from json_to_recordset($1::json) as j(${PG_INPUT_NAMES.map((n, i) => `${n} ${PG_INPUT_TYPES[i]}`).join(', ')}, ord bigint)), ` +
  `c as (select s.id, s.status, s.agentno, s.lastseq, ${COLLABS_PG} as collabs from agent_service s ` +
  'where s.id in (select sid from j) order by s.id collate "C" for update of s), ' +
  "g as (select j.*, c.id as cid, c.agentno, c.lastseq, c.collabs, (c.id is not null and (j.guard = 'none' " +
  "or (j.guard = 'visitor' and c.status in ('inqueue', 'inservice')) " +
  "or (j.guard = 'agent' and c.status = 'inservice' and (c.agentno = j.gagent " +
  "or j.gagent = any(string_to_array(c.collabs, ',')))))) as allowed from j left join c on c.id = j.sid), " +
  'n as (select g.*, g.lastseq + row_number() over w as seq, ' +
  "count(*) filter (where g.kind = 'in') over w as ins_so_far from g where g.allowed " +
  'window w as (partition by g.sid order by g.ord)), ' +
  `i as (insert into chat_message (${MESSAGE_COLUMNS.join(', ')}) select ${MESSAGE_COLUMNS.map((c) =>
    c === 'touser' ? "case when guard = 'visitor' then coalesce(agentno, '') else touser end" : c,
  ).join(', ')} from n), ` +
  "d as (select sid as id, max(seq) as lastseq, count(*) filter (where kind = 'in') as ins, " +
  "count(*) filter (where kind = 'reply') as replies, max(now) filter (where kind = 'in') as last_in, " +
  "max(now) filter (where kind = 'reply') as last_reply, min(now) filter (where kind = 'reply') as first_reply, " +
  '(array_agg(lastmsg order by ord desc))[1] as lastmsg, max(now) as updatetime from n group by sid), ' +
  `s as (update agent_service a set ${SERVICE_SET} from d where a.id = d.id), ` +
  `u as (update agent_user u set ${ENTRY_SET} from d where u.agentserviceid = d.id ` +
  'returning u.agentserviceid, u.tokenum) ' +
  'select g.cid, g.allowed, n.seq, g.agentno, g.collabs, u.tokenum as final_tokenum, d.ins, n.ins_so_far ' +
  'from g left join n on n.ord = g.ord left join d on d.id = g.sid left join u on u.agentserviceid = g.sid ' +
  'order by g.ord';

interface PgJobResult {
  cid: string | null;
  allowed: boolean;
  seq: number | null;
  agentno: string | null;
  collabs: string | null;
  final_tokenum: number | null;
  ins: number | null;
  ins_so_far: number | null;
}

/**
 * The batch as one JSON parameter (a record per job): V8's JSON.stringify is far cheaper than node-postgres
 * escaping one array literal per column, element by element.
 */
function pgParams(jobs: WriteJob[]): unknown[] {
  const records = jobs.map((j, i) => {
    const { m } = j;
    const rec: Record<string, unknown> = {
      sid: m.service.id,
      guard: m.guard?.kind ?? 'none',
      gagent: m.guard?.kind === 'agent' ? m.guard.agent : null,
      kind: kindOf(m),
      now: j.now,
      lastmsg: preview(m),
      ord: i + 1,
    };
    for (const c of PG_ROW_COLUMNS) rec[c] = j.row[c];
    return rec;
  });
  return [JSON.stringify(records)];
}

function pgOutcome(j: WriteJob, r: PgJobResult | undefined): Outcome<Written> {
  if (!r || !r.allowed) {
    if (!r?.cid && !j.m.guard)
      return { ok: false, err: new Error(`conversation ${j.m.service.id} not found`) };
    return { ok: true, value: null };
  }
  j.row.seq = Number(r.seq);
  if (j.m.guard?.kind === 'visitor') j.row.touser = r.agentno ?? '';
  const tokenum =
    r.final_tokenum === null ? 0 : Number(r.final_tokenum) - (Number(r.ins ?? 0) - Number(r.ins_so_far ?? 0));
  return {
    ok: true,
    value: { tokenum, live: { agentno: r.agentno, collaborators: r.collabs ? r.collabs.split(',') : [] } },
  };
}

/**
 * PostgreSQL: one statement per batch in autocommit, so one round trip (the statement returning means it
 * committed), prepared once per pooled connection: its plan is not cheap to make. With the test seam `beforeCommit` set it runs inside an explicit transaction instead.
 */
export function postgresBatchWriter(db: Db): BatchWriter {
  return async (jobs, beforeCommit) => {
    const params = pgParams(jobs);
    const rows = beforeCommit
      ? await db.kysely.transaction().execute(async (trx) => {
          const r = await rawRows<PgJobResult>(trx, PG_BATCH, params);
          await beforeCommit();
          return r;
        })
      : db.pool
        ? (await db.pool.query<PgJobResult>({ name: 'kefu_message_batch', text: PG_BATCH, values: params }))
            .rows
        : await rawRows<PgJobResult>(db.kysely, PG_BATCH, params);
    return jobs.map((j, i) => pgOutcome(j, rows[i]));
  };
}
