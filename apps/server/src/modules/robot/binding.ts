import { runFixed, type Sql } from '../conversation/hot-sql.js';

/**
 * What a new chat asks of the robot module inside its intake transaction (fixed SQL, so it also runs on
 * the held SQLite connection): the enabled robot bound to the website access point or the messaging
 * channel account (webim / sns, see robot.repository) the chat comes from, and the robot conversation's
 * session row.
 */
const BOUND = `select r.id from robot_binding b join robot r on r.id = b.robotid
  where b.channel in ('webim', 'sns') and b.target = ? and r.enabled = 1`;

export async function robotOfAccessPoint(k: Sql, appid: string): Promise<string | null> {
  return (await runFixed<{ id: string }>(k, BOUND, [appid])).rows[0]?.id ?? null;
}

const AI = 'update agent_service set ai = 1 where id = ?';
const SESSION = `insert into robot_session (agentserviceid, orgi, robotid, fallbacks, questions, createtime)
  values (?, ?, ?, 0, 0, ?)`;

/** Marks a just stored conversation as the robot's and opens its session. */
export async function openRobotSession(
  k: Sql,
  id: string,
  orgi: string,
  robotid: string,
  now: number,
): Promise<void> {
  await runFixed(k, AI, [id]);
  await runFixed(k, SESSION, [id, orgi, robotid, now]);
}
