import { CompiledQuery } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Db } from '../../platform/db/database.js';
import type { ChatMessageRow } from './presenter.js';
import type { Kdb } from './engine.js';
import { isUniqueViolation } from './message.repository.js';
import {
  BatchPlan,
  type ConversationDelta,
  type ConversationState,
  type WriteJob,
  type Written,
} from './message-plan.js';
import type { Outcome } from './message-writer.js';

/**
 * A batch of messages written set-wise: the conversations read (and locked) once, seqs planned in memory,
 * then every row inserted and ONE update per conversation and per chat entry. Compared with writing
 * message by message this takes the per-message statements down to one INSERT (SQLite) or to two
 * round trips per batch (PostgreSQL). Everything commits together or nothing does; when this path fails
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
};
export const MESSAGE_COLUMNS = Object.keys(COLUMN_TYPES) as Array<keyof ChatMessageRow>;

const COLLABS_SQLITE =
  "(select group_concat(c.userid, ',') from agent_collaborator c where c.agentserviceid = s.id)";
const COLLABS_PG =
  "(select string_agg(c.userid, ',') from agent_collaborator c where c.agentserviceid = s.id)";

/** The per-conversation update; parameter order: see deltaParams. */
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

interface SqliteStatements {
  begin: SQLite.Statement;
  commit: SQLite.Statement;
  rollback: SQLite.Statement;
  state: SQLite.Statement;
  insert: SQLite.Statement;
  service: SQLite.Statement;
  entry: SQLite.Statement;
}

const sqliteStatements = new WeakMap<SQLite.Database, SqliteStatements>();

function prepareSqlite(raw: SQLite.Database): SqliteStatements {
  let s = sqliteStatements.get(raw);
  if (s) return s;
  // A one-row "d" so the SET clauses are the same text as on PostgreSQL.
  const d =
    'from (select ? as lastseq, ? as ins, ? as replies, ? as last_in, ? as last_reply, ? as first_reply, ' +
    '? as lastmsg, ? as updatetime, ? as id) as d';
  s = {
    begin: raw.prepare('begin immediate'),
    commit: raw.prepare('commit'),
    rollback: raw.prepare('rollback'),
    state: raw.prepare(
      `select s.id, s.status, s.agentno, s.lastseq, ${COLLABS_SQLITE} as collabs from agent_service s where s.id = ?`,
    ),
    insert: raw.prepare(
      `insert into chat_message (${MESSAGE_COLUMNS.join(', ')}) values (${MESSAGE_COLUMNS.map(() => '?').join(', ')})`,
    ),
    service: raw.prepare(`update agent_service as a set ${SERVICE_SET} ${d} where a.id = d.id`),
    entry: raw.prepare(
      `update agent_user as u set ${ENTRY_SET} ${d} where u.agentserviceid = d.id returning tokenum`,
    ),
  };
  sqliteStatements.set(raw, s);
  return s;
}

const deltaParams = (d: ConversationDelta): unknown[] => [
  d.lastseq,
  d.ins,
  d.replies,
  d.lastIn,
  d.lastReply,
  d.firstReply,
  d.lastmsg,
  d.updatetime,
  d.id,
];

/**
 * SQLite: the whole batch runs synchronously on the connection under Kysely (held, so nothing else is
 * inside a transaction on it), under BEGIN IMMEDIATE. A resend hitting the unique index fails only its
 * own INSERT (SQLite aborts the statement, not the transaction), so it is answered on its own and the
 * others commit; seqs stay gap-free because that step is taken back before the next is planned.
 */
export function sqliteBatchWriter(db: Db): BatchWriter {
  const raw = db.sqlite;
  if (!raw) throw new Error('sqliteBatchWriter needs a SQLite database');
  return (jobs, beforeCommit) =>
    db.kysely.connection().execute(async () => {
      const s = prepareSqlite(raw);
      s.begin.run();
      try {
        const states = new Map<string, ConversationState>();
        const seen = new Set<string>();
        for (const j of jobs) {
          const sid = j.m.service.id;
          if (seen.has(sid)) continue;
          seen.add(sid);
          const st = s.state.get(sid) as ConversationState | undefined;
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
            s.insert.run(rowValues(j.row));
          } catch (err) {
            if (!isUniqueViolation(err)) throw err;
            plan.undoLast();
            errors.set(i, err);
          }
        });
        const tokenum = new Map<string, number>();
        for (const d of plan.changes()) {
          s.service.run(deltaParams(d));
          const e = s.entry.get(deltaParams(d)) as { tokenum: number } | undefined;
          if (e) tokenum.set(d.id, Number(e.tokenum));
        }
        if (beforeCommit) await beforeCommit();
        s.commit.run();
        return jobs.map((_, i): Outcome<Written> => {
          const err = errors.get(i);
          if (err !== undefined) return { ok: false, err };
          return { ok: true, value: plan.written(i, (sid) => tokenum.get(sid)) };
        });
      } catch (err) {
        if (raw.inTransaction) s.rollback.run();
        throw err;
      }
    });
}

// ------------------------------------------------------------------------------------------- PostgreSQL

const n = MESSAGE_COLUMNS.length;
const PG_STATE =
  `select s.id, s.status, s.agentno, s.lastseq, ${COLLABS_PG} as collabs from agent_service s ` +
  'where s.id = any($1::text[]) order by s.id for update of s';
const dp = (i: number) => `$${n + 1 + i}`;
const PG_WRITE =
  `with i as (insert into chat_message (${MESSAGE_COLUMNS.join(', ')}) ` +
  `select * from unnest(${MESSAGE_COLUMNS.map((c, i) => `$${i + 1}::${COLUMN_TYPES[c]}[]`).join(', ')})), ` +
  `s as (update agent_service a set ${SERVICE_SET} from unnest(${dp(0)}::text[], ${dp(1)}::integer[], ` +
  `${dp(2)}::integer[], ${dp(3)}::integer[], ${dp(4)}::bigint[], ${dp(5)}::bigint[], ${dp(6)}::bigint[]) ` +
  'as d(id, lastseq, ins, replies, last_in, last_reply, first_reply) where a.id = d.id) ' +
  `update agent_user u set ${ENTRY_SET} from unnest(${dp(0)}::text[], ${dp(2)}::integer[], ${dp(4)}::bigint[], ` +
  `${dp(5)}::bigint[], ${dp(7)}::text[], ${dp(8)}::bigint[]) as d(id, ins, last_in, last_reply, lastmsg, updatetime) ` +
  'where u.agentserviceid = d.id returning u.agentserviceid as id, u.tokenum';

async function run<T>(trx: Kdb, q: string, params: unknown[]): Promise<T[]> {
  return (await trx.executeQuery<T>(CompiledQuery.raw(q, params))).rows;
}

/**
 * PostgreSQL: BEGIN, the conversations locked in id order (so batches on different nodes never deadlock),
 * one statement that inserts every row (unnest) and updates each conversation and chat entry once, COMMIT.
 */
export function postgresBatchWriter(db: Db): BatchWriter {
  return (jobs, beforeCommit) =>
    db.kysely.transaction().execute(async (trx) => {
      const ids = [...new Set(jobs.map((j) => j.m.service.id))].sort();
      const states = new Map(
        (await run<ConversationState>(trx, PG_STATE, [ids])).map((s) => [s.id, s] as const),
      );
      const plan = new BatchPlan(states);
      const errors = new Map<number, unknown>();
      const rows: ChatMessageRow[] = [];
      jobs.forEach((j, i) => {
        try {
          if (plan.take(j) !== null) rows.push(j.row);
        } catch (err) {
          errors.set(i, err);
        }
      });
      const tokenum = new Map<string, number>();
      if (rows.length > 0) {
        const deltas = plan.changes();
        const col = <K extends keyof ConversationDelta>(k: K) => deltas.map((d) => d[k]);
        const params = [
          ...MESSAGE_COLUMNS.map((c) => rows.map((r) => r[c])),
          col('id'),
          col('lastseq'),
          col('ins'),
          col('replies'),
          col('lastIn'),
          col('lastReply'),
          col('firstReply'),
          col('lastmsg'),
          col('updatetime'),
        ];
        for (const e of await run<{ id: string; tokenum: number }>(trx, PG_WRITE, params))
          tokenum.set(e.id, Number(e.tokenum));
      }
      if (beforeCommit) await beforeCommit();
      return jobs.map((_, i): Outcome<Written> => {
        const err = errors.get(i);
        if (err !== undefined) return { ok: false, err };
        return { ok: true, value: plan.written(i, (sid) => tokenum.get(sid)) };
      });
    });
}
