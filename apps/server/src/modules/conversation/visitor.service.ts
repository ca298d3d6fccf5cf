import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { VisitorAgentInfo, VisitorNewResult, VisitorWelcome } from '@kefu/protocol';
import type { z } from 'zod';
import type { visitorHandshakeSchema, visitorNewSchema } from '@kefu/protocol';
import { AppError, forbidden, notFound, unauthorized } from '../../platform/http/errors.js';
import { toVisitor, type Engine } from './engine.js';
import * as srepo from './service.repository.js';
import { agentInfo, announceAssigned, drainQueue } from './routing.service.js';
import { intake, ownPage } from './new-chat.js';
import type { Admitted } from './admission.js';
import type { AgentServiceRow } from './presenter.js';
import { loadSessionConfig, type SessionConfig } from './session-config.js';
import { publishReport } from './report.js';
import { conversationEvent } from './changes.js';
import { watchPlacement, type Placement } from './placements.js';
import { localizedConfig, rowText } from '../texts/texts.service.js';
import { visitorRobotOf } from '../robot/robot.repository.js';
import { robotGreets } from '../robot/flow.service.js';
import { visitorOrigin } from '../analysis/visit-info.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

export interface VisitorIdentity {
  userid: string;
  orgi: string;
  appid: string;
  /** The widget's language ('' = not told): the texts sent to this visitor follow it. */
  lang?: string;
}

export interface ConnectMeta {
  ip: string;
  userAgent: string;
  referer: string;
}

/**
 * Checks appid and the visitor credential; creates the visitor (and its credential) on first contact.
 * Marks the visitor online in its language; `cameBack`: it was offline (its agents are told).
 */
export async function visitorConnect(
  e: Engine,
  q: z.infer<typeof visitorHandshakeSchema>,
  meta: ConnectMeta,
): Promise<{ identity: VisitorIdentity; token: string; cameBack: boolean }> {
  const k = e.db.kysely;
  const ap = await k.selectFrom('access_point').selectAll().where('id', '=', q.appid).executeTakeFirst();
  if (!ap) throw notFound('access_point_not_found');
  const now = e.clock.now();
  const lang = q.l ?? '';
  const v = await k.selectFrom('visitor').selectAll().where('id', '=', q.userid).executeTakeFirst();
  if (v) {
    if (v.orgi !== ap.orgi || !q.token || !sameHash(sha(q.token), v.token_hash))
      throw unauthorized('visitor_token');
    await k
      .updateTable('visitor')
      .set({ updatetime: now, ip: meta.ip, online: 1, offtime: null, ...(lang ? { language: lang } : {}) })
      .where('id', '=', v.id)
      .execute();
    return {
      identity: { userid: v.id, orgi: v.orgi, appid: ap.id, lang: lang || v.language },
      token: q.token,
      cameBack: Number(v.online) === 0,
    };
  }
  const token = randomBytes(24).toString('hex');
  await k
    .insertInto('visitor')
    .values({
      id: q.userid,
      orgi: ap.orgi,
      appid: ap.id,
      token_hash: sha(token),
      ip: meta.ip,
      // Region and browser/OS names worked out once, here (the conversation copies them).
      ...visitorOrigin(meta.ip, meta.userAgent),
      source: ownPage(meta.referer) ? '' : meta.referer.slice(0, 500),
      createtime: now,
      updatetime: now,
      online: 1,
      language: lang,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return { identity: { userid: q.userid, orgi: ap.orgi, appid: ap.id, lang }, token, cameBack: false };
}

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** `vt` = "<userid>.<token>" → the visitor, for media checks. */
export async function visitorFromCredential(e: Engine, vt: string): Promise<VisitorIdentity | null> {
  const dot = vt.indexOf('.');
  if (dot < 1) return null;
  const userid = vt.slice(0, dot);
  const v = await e.db.kysely.selectFrom('visitor').selectAll().where('id', '=', userid).executeTakeFirst();
  if (!v || !sameHash(sha(vt.slice(dot + 1)), v.token_hash)) return null;
  return { userid: v.id, orgi: v.orgi, appid: v.appid };
}

export async function welcomeFor(e: Engine, id: VisitorIdentity, token: string): Promise<VisitorWelcome> {
  const cfg = await localizedConfig(e.db.kysely, await loadSessionConfig(e.db, id.orgi), id.orgi, id.lang);
  const s = await srepo.latestServiceOf(e.db.kysely, id.orgi, id.userid);
  return {
    userid: id.userid,
    token,
    agentserviceid: s?.id ?? null,
    status: (s?.status as VisitorWelcome['status'] | undefined) ?? 'none',
    agent: s?.agentno && s.status !== 'end' ? await agentInfo(e, s.agentno) : null,
    position: s?.status === 'inqueue' ? s.queneindex : null,
    lastseq: s?.lastseq ?? 0,
    config: { welcome: cfg.sessionmsg, name: cfg.servicename, satisfaction: cfg.satisfaction },
    robot: s?.ai && s.status !== 'end' ? await visitorRobotOf(e.db.kysely, s.id) : null,
  };
}

/**
 * A visitor asks for an agent: a new conversation is seated at once or joins the FIFO queue. `asker` is
 * the asking socket: when this request gets the chat its agent, the ack carries the `assigned` notice
 * (VisitorNewResult.message) and that socket is left out of the `assigned` emit.
 */
export async function requestAgent(
  e: Engine,
  id: VisitorIdentity,
  input: z.infer<typeof visitorNewSchema>,
  asker?: string,
): Promise<VisitorNewResult> {
  const now = e.clock.now();
  const got = await intake(e, id, input, now);
  if (got.kind === 'blocked') {
    const cfg = await localizedConfig(e.db.kysely, got.cfg, id.orgi, id.lang);
    toVisitor(e, id.userid, 'leavemsg', { reason: 'blacklist', message: cfg.noagentmsg });
    throw forbidden('visitor_blacklisted');
  }
  if (got.kind === 'closed') {
    const message = got.schedule
      ? await rowText(e.db.kysely, id.orgi, 'workingHours', got.schedule, 'notinwhmsg', got.message, id.lang)
      : got.message;
    toVisitor(e, id.userid, 'leavemsg', { reason: 'notinworktime', message });
    throw forbidden('not_in_work_time');
  }
  const placement = got.kind === 'stored' ? await place(e, got.admitted, got.cfg, asker) : null;
  const s =
    got.kind === 'open'
      ? got.service
      : (placement?.service ?? (await srepo.findService(e.db.kysely, got.admitted.service.id)));
  if (!s) throw new AppError('server_error', 500);
  const result = await stateOf(e, s, placement?.agent);
  if (placement?.message !== undefined) result.message = placement.message;
  return result;
}

/** A conversation as the widget's `new` and `handoff` acks report it (`known`: its agent, if at hand). */
export async function stateOf(
  e: Engine,
  s: Pick<AgentServiceRow, 'id' | 'status' | 'queneindex' | 'agentno'> & Partial<Pick<AgentServiceRow, 'ai'>>,
  known?: VisitorAgentInfo,
): Promise<VisitorNewResult> {
  const result: VisitorNewResult = {
    agentserviceid: s.id,
    status: s.status as VisitorNewResult['status'],
    position: s.status === 'inqueue' ? s.queneindex : null,
    agent:
      s.agentno && s.status === 'inservice'
        ? s.agentno === known?.id
          ? known
          : await agentInfo(e, s.agentno)
        : null,
  };
  if (s.ai) result.robot = await visitorRobotOf(e.db.kysely, s.id);
  return result;
}

/**
 * A stored conversation: seated at once → the agent and the visitor are told; queued → the queue is
 * drained (which may seat it: the drain then hands over the committed row and the notice).
 */
async function place(
  e: Engine,
  admitted: Admitted,
  cfg: SessionConfig,
  asker: string | undefined,
): Promise<Placement | null> {
  conversationEvent(e, admitted.service.orgi, 'created', admitted.service.id);
  if (admitted.robot) {
    // With the robot: it greets the visitor; nobody is seated and the queue is not served.
    await robotGreets(e, admitted.service.id);
    await publishReport(e, admitted.service.orgi, 'visitor', 'new', admitted.service.id);
    return null;
  }
  const { service, agent } = admitted;
  let placement: Placement | null;
  if (agent) {
    const a = await announceAssigned(
      e,
      service.id,
      agent.id,
      false,
      { ...admitted, info: agent, cfg, visitorOnline: true },
      asker,
    );
    // No 'acd' report of its own: the 'visitor new' one below replaces it in the same throttle window.
    placement = { service, agent, message: a?.notice.message };
  } else {
    const placed = watchPlacement(e, service.id, asker);
    try {
      await drainQueue(e, service.orgi);
    } finally {
      placement = placed();
    }
  }
  await publishReport(e, service.orgi, 'visitor', 'new', service.id);
  return placement;
}
