import {
  ANALYSIS_LIMITS,
  KNOWLEDGE_CODE,
  hasPermission,
  type AiDegreeDay,
  type AiDegreeRobotDto,
  type RobotAction,
} from '@kefu/protocol';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { aiDegreeRobotQuery, aiLearnSchema, KbItemDto } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { Db } from '../../platform/db/database.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { storeIn, present } from '../knowledge/items.service.js';
import { announce, bumpIndex } from '../knowledge/kb.index.js';
import * as repo from './robot.repository.js';

/**
 * AI statistics from the robot's own records (/api/analyse/aiDegree/robot, A06_A04_A01): questions by
 * outcome (robot_question), robot conversations, handoffs and chats the robot closed alone
 * (robot_session), by the reader's calendar day and by robot; the most asked unanswered questions.
 * The test chat is not counted.
 */

const DAY = 86_400_000;
const UNANSWERED = 20;

type Totals = Omit<AiDegreeDay, 'day'>;
const zero = (): Totals => ({
  questions: 0,
  answered: 0,
  suggested: 0,
  fallback: 0,
  handoffs: 0,
  conversations: 0,
  resolved: 0,
});

function range(q: z.infer<typeof aiDegreeRobotQuery>) {
  const tzMs = q.tz * 60_000;
  const from = Date.parse(`${q.begin}T00:00:00Z`);
  const to = Date.parse(`${q.end}T00:00:00Z`);
  if (Number.isNaN(from) || Number.isNaN(to)) throw badRequest('invalid_field', { begin: 'invalid_field' });
  if (from > to) throw badRequest('range_invalid');
  const days = (to - from) / DAY + 1;
  if (days > ANALYSIS_LIMITS.maxDays) throw badRequest('range_too_long');
  return { begin: from + tzMs, end: to + DAY + tzMs, first: from / DAY, days, tzMs };
}

const dayName = (index: number) => new Date(index * DAY).toISOString().slice(0, 10);

export async function aiDegreeRobot(
  db: Db,
  p: Principal,
  q: z.infer<typeof aiDegreeRobotQuery>,
): Promise<AiDegreeRobotDto> {
  const k = db.kysely;
  const r = range(q);
  // The reader's day of a time: (ms − offset) / day as an integer on both databases (times are positive).
  const day = (col: string) => sql<number>`cast((${sql.ref(col)} - ${r.tzMs}) / ${DAY} as bigint)`;
  let questions = k
    .selectFrom('robot_question')
    .select(['robotid', 'action', (eb) => eb.fn.countAll<number>().as('n')])
    .select(day('createtime').as('d'))
    .where('orgi', '=', p.orgi)
    .where('agentserviceid', '!=', '')
    .where('createtime', '>=', r.begin)
    .where('createtime', '<', r.end);
  if (q.robotid) questions = questions.where('robotid', '=', q.robotid);
  let sessions = k
    .selectFrom('robot_session as rs')
    .innerJoin('agent_service as s', 's.id', 'rs.agentserviceid')
    .select(['rs.robotid', (eb) => eb.fn.countAll<number>().as('n')])
    .select(day('rs.createtime').as('d'))
    .select(sql<number>`sum(case when rs.handoff is not null then 1 else 0 end)`.as('handoffs'))
    .select(
      sql<number>`sum(case when rs.handoff is null and s.status = 'end' then 1 else 0 end)`.as('resolved'),
    )
    .where('rs.orgi', '=', p.orgi)
    .where('rs.createtime', '>=', r.begin)
    .where('rs.createtime', '<', r.end);
  if (q.robotid) sessions = sessions.where('rs.robotid', '=', q.robotid);

  const [qrows, srows, robots, unanswered] = await Promise.all([
    questions.groupBy(['robotid', 'action', 'd']).execute(),
    sessions.groupBy(['rs.robotid', 'd']).execute(),
    repo.listRobots(k, p.orgi),
    unansweredOf(db, p.orgi, r.begin, r.end, q.robotid ?? undefined),
  ]);
  const byDay = new Map<number, Totals>();
  const byRobot = new Map<string, Totals>();
  const totals = zero();
  const add = (d: number, robotid: string, f: (t: Totals) => void) => {
    for (const t of [
      byDay.get(d) ?? byDay.set(d, zero()).get(d)!,
      byRobot.get(robotid) ?? byRobot.set(robotid, zero()).get(robotid)!,
      totals,
    ])
      f(t);
  };
  const field: Partial<Record<RobotAction, keyof Totals>> = {
    answer: 'answered',
    suggest: 'suggested',
    fallback: 'fallback',
  };
  for (const row of qrows) {
    const n = Number(row.n);
    const f = field[row.action as RobotAction];
    add(Math.floor(Number(row.d)), row.robotid, (t) => {
      t.questions += n;
      if (f) t[f] += n;
    });
  }
  for (const row of srows) {
    add(Math.floor(Number(row.d)), row.robotid, (t) => {
      t.conversations += Number(row.n);
      t.handoffs += Number(row.handoffs ?? 0);
      t.resolved += Number(row.resolved ?? 0);
    });
  }
  const names = new Map(robots.map((x) => [x.id, x.name]));
  return {
    days: Array.from({ length: r.days }, (_, i) => ({
      day: dayName(r.first + i),
      ...(byDay.get(r.first + i) ?? zero()),
    })),
    totals,
    robots: [...byRobot].map(([robotid, t]) => ({ robotid, name: names.get(robotid) ?? '', ...t })),
    unanswered,
  };
}

async function unansweredOf(db: Db, orgi: string, begin: number, end: number, robotid?: string) {
  let q = db.kysely
    .selectFrom('robot_question')
    .select([
      'question',
      (eb) => eb.fn.countAll<number>().as('times'),
      (eb) => eb.fn.max('createtime').as('last'),
      (eb) => eb.fn.min('id').as('id'),
      (eb) => eb.fn.min('action').as('action'),
    ])
    .where('orgi', '=', orgi)
    .where('agentserviceid', '!=', '')
    .where('learned', '=', 0)
    .where('action', 'in', ['fallback', 'suggest'])
    .where('question', '!=', '')
    .where('createtime', '>=', begin)
    .where('createtime', '<', end);
  if (robotid) q = q.where('robotid', '=', robotid);
  const rows = await q
    .groupBy('question')
    .orderBy((eb) => eb.fn.countAll(), 'desc')
    .orderBy('question')
    .limit(UNANSWERED)
    .execute();
  return rows.map((x) => ({
    id: String(x.id),
    question: x.question,
    times: Number(x.times),
    lastTime: Number(x.last),
    action: x.action as RobotAction,
  }));
}

/**
 * An unanswered question becomes a knowledge item (its caller also needs A09_A05_A02); every logged
 * occurrence of that question leaves the unanswered list.
 */
export async function learn(db: Db, p: Principal, input: z.infer<typeof aiLearnSchema>): Promise<KbItemDto> {
  if (!hasPermission(p.usertype, p.auth, KNOWLEDGE_CODE)) throw forbidden();
  const now = Date.now();
  const { row, change } = await db.kysely.transaction().execute(async (k) => {
    const logged = await k
      .selectFrom('robot_question')
      .select(['question'])
      .where('orgi', '=', p.orgi)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!logged) throw notFound();
    const item = await storeIn(
      k,
      p.orgi,
      p.id,
      { typeid: input.typeid, question: input.question, answer: input.answer, similar: [logged.question] },
      null,
      now,
    );
    await k
      .updateTable('robot_question')
      .set({ learned: 1 })
      .where('orgi', '=', p.orgi)
      .where('question', '=', logged.question)
      .execute();
    return { row: item, change: await bumpIndex(k, db, p.orgi) };
  });
  announce(db, change);
  return (await present(db.kysely, p.orgi, [row], now))[0]!;
}
