import type { HandoffReason, MessageDto, RobotAnswerDto, RobotDto, RobotReplyMeta } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';
import { toVisitor, type Engine } from '../conversation/engine.js';
import { agentRead, deliver, storeMessage } from '../conversation/message.service.js';
import { presentMessage, type AgentServiceRow } from '../conversation/presenter.js';
import * as srepo from '../conversation/service.repository.js';
import { queueForHuman } from '../monitor/move.service.js';
import { workTimeDecisionOn } from '../workservice/workservice.service.js';
import { rowText } from '../texts/texts.service.js';
import { answer } from './answer.service.js';
import * as repo from './robot.repository.js';
import { PER_MILLE, presentRobot } from './robot.presenter.js';

/**
 * The robot in a live conversation (ai = 1: in service, no agent). It greets the visitor, answers each of
 * the visitor's messages in turn (typing indicator first), and hands the chat to a human when asked
 * (button or phrase), after N fallbacks in a row, on its own rule, when the model decides so, or when a
 * supervisor does (GET /api/monitor/aiChange). A handoff tells the visitor, goes through normal routing
 * (working hours, queue, leave message) and never comes back to the robot by itself. Its lines are stored
 * messages of type `robot` (the agent who takes the chat reads them as the transcript); their outcome,
 * suggestions and citations travel as MessageDto.robot (robot_reply).
 */

type Kdb = Db['kysely'];

/** Per conversation, its questions are answered one after the other. */
const turns = new WeakMap<Engine, Map<string, Promise<void>>>();

function inTurn(e: Engine, sid: string, fn: () => Promise<void>): Promise<void> {
  let m = turns.get(e);
  if (!m) turns.set(e, (m = new Map()));
  const prev = m.get(sid) ?? Promise.resolve();
  const next = prev.then(fn).catch((err: unknown) => console.error('robot', err));
  m.set(sid, next);
  void next.then(() => {
    if (m.get(sid) === next) m.delete(sid);
  });
  return next;
}

/** Resolves when every answer under way on this node is out (the app waits for it before closing). */
export async function turnsDone(e: Engine): Promise<void> {
  const m = turns.get(e);
  if (m) await Promise.all([...m.values()]);
}

async function robotOf(k: Kdb, sid: string): Promise<{ robot: RobotDto; fallbacks: number } | null> {
  const session = await repo.sessionOf(k, sid);
  const r = session && (await repo.robotById(k, session.robotid));
  return r ? { robot: presentRobot(r, []), fallbacks: Number(session.fallbacks) } : null;
}

const stillRobots = (s: AgentServiceRow | undefined): s is AgentServiceRow =>
  !!s && s.status === 'inservice' && Number(s.ai) === 1;

/** Stores a robot line and sends it to the visitor and whoever follows the chat. */
async function say(
  e: Engine,
  s: AgentServiceRow,
  robot: Pick<RobotDto, 'id' | 'name'>,
  text: string,
  meta: RobotReplyMeta,
  clientId: string,
): Promise<MessageDto | null> {
  if (!text) return null;
  const stored = await storeMessage(e, {
    service: s,
    sender: robot.id,
    username: robot.name,
    touser: s.userid,
    clientId,
    type: 'robot',
    msgtype: 'text',
    calltype: 'out',
    message: text,
  });
  if (stored.created)
    await e.db.kysely
      .insertInto('robot_reply')
      .values({ msgid: stored.row.id, agentserviceid: s.id, meta: JSON.stringify(meta) })
      .onConflict((oc) => oc.column('msgid').doNothing())
      .execute();
  const dto: MessageDto = { ...presentMessage(stored.row, stored.tokenum), robot: meta };
  if (stored.created) await deliver(e, s, dto);
  return dto;
}

const metaOf = (a: RobotAnswerDto, lead: string): RobotReplyMeta => ({
  action: a.action,
  itemid: a.action === 'answer' ? (a.item?.id ?? null) : null,
  lead: a.action === 'suggest' ? lead : '',
  suggestions: a.action === 'suggest' ? a.suggestions.map(({ id, question }) => ({ id, question })) : [],
  cites: a.cites,
  score: a.score,
});

const plain = (action: RobotReplyMeta['action']): RobotReplyMeta => ({
  action,
  itemid: null,
  lead: '',
  suggestions: [],
  cites: [],
  score: 0,
});

/** A robot conversation just stored: the robot says its welcome. */
export async function robotGreets(e: Engine, sid: string): Promise<void> {
  const k = e.db.kysely;
  const [s, bot] = await Promise.all([srepo.findService(k, sid), robotOf(k, sid)]);
  if (!stillRobots(s) || !bot) return;
  await say(e, s, bot.robot, bot.robot.welcome, plain('answer'), `robot-welcome:${sid}`);
}

/**
 * A visitor message was stored in a conversation without an agent: if the robot serves it, the robot
 * answers (after the messages before it). Returns when the answer is out.
 */
export function visitorSaid(
  e: Engine,
  sid: string,
  m: Pick<MessageDto, 'id' | 'msgtype' | 'message'>,
): Promise<void> {
  return inTurn(e, sid, async () => {
    const k = e.db.kysely;
    const s = await srepo.findService(k, sid);
    if (!stillRobots(s)) return;
    const bot = await robotOf(k, sid);
    if (!bot) return void (await handOff(e, s, 'rule'));
    toVisitor(e, s.userid, 'writing', { agentserviceid: s.id, message: '' });
    const now = e.clock.now();
    const question = m.msgtype === 'text' ? m.message : '';
    const a = await answer(e.db, s.orgi, bot.robot, question, { fallbacks: bot.fallbacks, now });
    await record(k, s, bot.robot, question, a, now);
    const fresh = await srepo.findService(k, sid);
    // A supervisor or the visitor moved the chat meanwhile: the robot keeps quiet.
    if (!stillRobots(fresh)) return;
    if (a.action === 'handoff') {
      if (a.handoff === 'fallbacks')
        await say(e, fresh, bot.robot, bot.robot.fallback, plain('fallback'), `robot:${m.id}:fallback`);
      await handOff(e, fresh, a.handoff ?? 'rule', bot.robot);
      return;
    }
    await say(e, fresh, bot.robot, a.text, metaOf(a, bot.robot.suggestmsg), `robot:${m.id}`);
    // The robot read what it answered: the visitor's lines show as read.
    await agentRead(e, (await srepo.findService(k, sid)) ?? fresh);
  });
}

/** The question log (AI statistics, unanswered questions) and the session's counters. */
async function record(
  k: Kdb,
  s: AgentServiceRow,
  robot: RobotDto,
  question: string,
  a: RobotAnswerDto,
  now: number,
) {
  await k
    .insertInto('robot_question')
    .values({
      id: newId(),
      orgi: s.orgi,
      robotid: robot.id,
      agentserviceid: s.id,
      question: question.slice(0, 500),
      action: a.action,
      itemid: a.item?.id ?? null,
      score: Math.round(a.score * PER_MILLE),
      source: a.source,
      createtime: now,
    })
    .execute();
  await k
    .updateTable('robot_session')
    .set((eb) => ({
      questions: eb('questions', '+', 1),
      fallbacks: a.action === 'fallback' ? eb('fallbacks', '+', 1) : 0,
    }))
    .where('agentserviceid', '=', s.id)
    .execute();
  if (a.action === 'answer' && a.item)
    await k
      .updateTable('kb_item')
      .set((eb) => ({ hits: eb('hits', '+', 1) }))
      .where('id', '=', a.item.id)
      .execute();
}

/**
 * Records a handoff (why, when), tells the visitor's widget the robot is gone and starts the wait for a
 * human from now. Also used by the supervisor's aiChange before it moves the chat.
 */
export async function markHandoff(e: Engine, s: AgentServiceRow, reason: HandoffReason): Promise<void> {
  const k = e.db.kysely;
  const now = e.clock.now();
  await k.updateTable('agent_service').set({ queuetime: now }).where('id', '=', s.id).execute();
  await k
    .updateTable('robot_session')
    .set({ handoff: reason, handofftime: now })
    .where('agentserviceid', '=', s.id)
    .where('handoff', 'is', null)
    .execute();
  toVisitor(e, s.userid, 'robot', { agentserviceid: s.id, robot: null });
}

/**
 * The robot's chat goes to a human through normal routing. Outside working hours the visitor is offered
 * the leave-message form and stays with the robot (nothing waits in a queue nobody serves). Returns
 * whether the chat left the robot.
 */
export async function handOff(
  e: Engine,
  s: AgentServiceRow,
  reason: HandoffReason,
  robot?: RobotDto,
): Promise<boolean> {
  const k = e.db.kysely;
  const bot = robot ?? (await robotOf(k, s.id))?.robot;
  const hours = await workTimeDecisionOn(k, s.orgi, s.organ, e.clock.now());
  if (!hours.open) {
    const message = hours.schedule
      ? await rowText(k, s.orgi, 'workingHours', hours.schedule, 'notinwhmsg', hours.message, s.language)
      : hours.message;
    toVisitor(e, s.userid, 'leavemsg', { reason: 'notinworktime', message });
    if (bot) await say(e, s, bot, message, plain('fallback'), `robot-closed:${s.id}:${newId().slice(0, 8)}`);
    return false;
  }
  if (bot) await say(e, s, bot, bot.handoffmsg, plain('handoff'), `robot-handoff:${s.id}`);
  await markHandoff(e, s, reason);
  try {
    await queueForHuman(e, s);
  } catch (err) {
    // Already moved by someone else (conversation_changed): that move stands.
    if ((err as { key?: string }).key !== 'conversation_changed') throw err;
  }
  return true;
}

/** The visitor's 转人工 button: the open robot chat goes to a human (anything else is left as it is). */
export async function visitorAsksHuman(e: Engine, orgi: string, userid: string): Promise<void> {
  const s = await srepo.openServiceOf(e.db.kysely, orgi, userid);
  if (!stillRobots(s)) return;
  await inTurn(e, s.id, async () => {
    const fresh = await srepo.findService(e.db.kysely, s.id);
    if (stillRobots(fresh)) await handOff(e, fresh, 'button');
  });
}

/**
 * A supervisor gave the chat to the robot (aiChange ai=true): its session continues with the robot it
 * had, or the access point's robot; the visitor is told and greeted. Null when no robot can take it.
 */
export async function robotFor(k: Kdb, s: AgentServiceRow): Promise<string | null> {
  const session = await repo.sessionOf(k, s.id);
  if (session && (await repo.robotById(k, session.robotid))) return session.robotid;
  const bound =
    (await repo.boundRobot(k, repo.WEBIM, s.appid)) ?? (await repo.boundRobot(k, repo.SNS, s.appid));
  return bound?.id ?? null;
}

export async function robotResumes(e: Engine, sid: string, robotid: string): Promise<void> {
  const k = e.db.kysely;
  const now = e.clock.now();
  const s = await srepo.findService(k, sid);
  if (!stillRobots(s)) return;
  await k
    .insertInto('robot_session')
    .values({ agentserviceid: sid, orgi: s.orgi, robotid, createtime: now })
    .onConflict((oc) => oc.column('agentserviceid').doUpdateSet({ robotid, fallbacks: 0 }))
    .execute();
  toVisitor(e, s.userid, 'robot', { agentserviceid: s.id, robot: await repo.visitorRobotOf(k, s.id) });
  const bot = await robotOf(k, sid);
  if (bot) await say(e, s, bot.robot, bot.robot.welcome, plain('answer'), `robot-resume:${sid}:${now}`);
}

/** Robot lines of a replayed page get their outcome and suggestions back (the widget draws them). */
export async function withRobotMeta(k: Kdb, list: MessageDto[]): Promise<MessageDto[]> {
  const ids = list.filter((m) => m.type === 'robot').map((m) => m.id);
  if (ids.length === 0) return list;
  const rows = await k
    .selectFrom('robot_reply')
    .select(['msgid', 'meta'])
    .where('msgid', 'in', ids)
    .execute();
  const meta = new Map(rows.map((r) => [r.msgid, JSON.parse(r.meta) as RobotReplyMeta]));
  return list.map((m) => (meta.has(m.id) ? { ...m, robot: meta.get(m.id) } : m));
}
