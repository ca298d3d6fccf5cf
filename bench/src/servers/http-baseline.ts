/**
 * B6 baseline: bare node:http + JSON.stringify serving the same rows from the same database with the
 * same SQL the app issues (no auth, no framework, no presenter).
 *   GET /m?sid=&before=&ps=   newest page (or the page before seq) of one conversation, ascending
 *   GET /h?agent=&p=&ps=      one agent's ended conversations, newest end first, with total
 *   GET /h?agent=&before=E:I&ps=   the same by keyset (the page after the row with endtime E, id I)
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';

const port = Number(process.env.PORT);
const db = new SQLite(join(process.env.KEFU_DATA_DIR ?? '.', 'kefu.sqlite'), { readonly: true });
db.pragma('busy_timeout = 5000');

const pageBefore = db.prepare(
  'select * from chat_message where agentserviceid = ? and seq < ? order by seq desc limit ?',
);
const pageNewest = db.prepare(
  'select * from chat_message where agentserviceid = ? order by seq desc limit ?',
);
const endedCount = db.prepare("select count(*) as n from agent_service where agentno = ? and status = 'end'");
const endedPage = db.prepare(
  "select * from agent_service where agentno = ? and status = 'end' order by endtime desc, id desc limit ? offset ?",
);
const endedBefore = db.prepare(
  `select * from agent_service where agentno = ? and status = 'end' and endtime <= ? and (endtime < ? or id < ?)
   order by endtime desc, id desc limit ?`,
);

createServer((req, res) => {
  const u = new URL(req.url ?? '/', 'http://x');
  const q = u.searchParams;
  let body: unknown;
  if (u.pathname === '/m') {
    const ps = Number(q.get('ps') ?? 20);
    const before = q.get('before');
    const rows = (
      before ? pageBefore.all(q.get('sid'), Number(before), ps + 1) : pageNewest.all(q.get('sid'), ps + 1)
    ).reverse();
    const hasMore = rows.length > ps;
    body = { success: true, data: { list: hasMore ? rows.slice(1) : rows, hasMore }, msg: 'ok', code: 200 };
  } else if (u.pathname === '/h') {
    const p = Number(q.get('p') ?? 1);
    const ps = Number(q.get('ps') ?? 20);
    const agent = q.get('agent');
    const before = q.get('before');
    const total = (endedCount.get(agent) as { n: number }).n;
    let rows: Array<{ endtime: number; id: string }>;
    if (before) {
      const [e, id] = [Number(before.slice(0, before.indexOf(':'))), before.slice(before.indexOf(':') + 1)];
      rows = endedBefore.all(agent, e, e, id, ps + 1) as typeof rows;
    } else rows = endedPage.all(agent, ps + 1, (p - 1) * ps) as typeof rows;
    const more = rows.length > ps;
    const list = more ? rows.slice(0, ps) : rows;
    const last = list[list.length - 1];
    const next = more && last ? `${last.endtime}:${last.id}` : null;
    body = {
      success: true,
      data: { agentServices: { list, total, page: p, size: ps, next } },
      msg: 'ok',
      code: 200,
    };
  } else {
    res.writeHead(404).end();
    return;
  }
  const json = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(json);
}).listen(port, '127.0.0.1');

process.once('SIGTERM', () => process.exit(0));
