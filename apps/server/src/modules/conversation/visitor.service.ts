import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { VisitorNewResult, VisitorWelcome } from '@kefu/protocol';
import type { z } from 'zod';
import type { visitorHandshakeSchema, visitorNewSchema } from '@kefu/protocol';
import { AppError, forbidden, notFound, unauthorized } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { toVisitor, type Engine } from './engine.js';
import * as srepo from './service.repository.js';
import { agentInfo, announceAssigned, drainQueue } from './routing.service.js';
import { admit } from './admission.js';
import { runFixed } from './hot-sql.js';
import type { Selectable } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { loadSessionConfig } from './session-config.js';
import { publishReport } from './report.js';
import { watchPlacement, type Placement } from './placements.js';
import { isVisitorBlocked } from '../black/black.repository.js';
import { workTimeDecision } from '../workservice/workservice.service.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

export interface VisitorIdentity {
  userid: string;
  orgi: string;
  appid: string;
}

export interface ConnectMeta {
  ip: string;
  userAgent: string;
  referer: string;
}

/** Checks appid and the visitor credential; creates the visitor (and its credential) on first contact. */
export async function visitorConnect(
  e: Engine,
  q: z.infer<typeof visitorHandshakeSchema>,
  meta: ConnectMeta,
): Promise<{ identity: VisitorIdentity; token: string }> {
  const k = e.db.kysely;
  const ap = await k.selectFrom('access_point').selectAll().where('id', '=', q.appid).executeTakeFirst();
  if (!ap) throw notFound('access_point_not_found');
  const now = e.clock.now();
  const v = await k.selectFrom('visitor').selectAll().where('id', '=', q.userid).executeTakeFirst();
  if (v) {
    if (v.orgi !== ap.orgi || !q.token || !sameHash(sha(q.token), v.token_hash))
      throw unauthorized('visitor_token');
    await k.updateTable('visitor').set({ updatetime: now, ip: meta.ip }).where('id', '=', v.id).execute();
    return { identity: { userid: v.id, orgi: v.orgi, appid: ap.id }, token: q.token };
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
      browser: meta.userAgent.slice(0, 200),
      source: meta.referer.slice(0, 500),
      createtime: now,
      updatetime: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return { identity: { userid: q.userid, orgi: ap.orgi, appid: ap.id }, token };
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
  const cfg = await loadSessionConfig(e.db, id.orgi);
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
  };
}

type AccessPointRow = Selectable<Database['access_point']>;
type VisitorRow = Selectable<Database['visitor']>;
const ACCESS_POINT = 'select * from access_point where id = ?';
const VISITOR = 'select * from visitor where id = ?';

/** A visitor asks for an agent: a new conversation joins the FIFO queue, which is drained at once. */
export async function requestAgent(
  e: Engine,
  id: VisitorIdentity,
  input: z.infer<typeof visitorNewSchema>,
): Promise<VisitorNewResult> {
  const k = e.db.kysely;
  const now = e.clock.now();
  if (await isVisitorBlocked(k, id.orgi, id.userid, now)) {
    const cfg = await loadSessionConfig(e.db, id.orgi);
    toVisitor(e, id.userid, 'leavemsg', { reason: 'blacklist', message: cfg.noagentmsg });
    throw forbidden('visitor_blacklisted');
  }
  let s = await srepo.openServiceOf(k, id.orgi, id.userid);
  let placement: Placement | null = null;
  if (!s) {
    const ap = (await runFixed<AccessPointRow>(k, ACCESS_POINT, [id.appid])).rows[0];
    const v = (await runFixed<VisitorRow>(k, VISITOR, [id.userid])).rows[0];
    if (!ap || !v) throw notFound('access_point_not_found');
    const hours = await workTimeDecision(e.db, id.orgi, input.skill || ap.organ, now);
    if (!hours.open) {
      toVisitor(e, id.userid, 'leavemsg', { reason: 'notinworktime', message: hours.message });
      throw forbidden('not_in_work_time');
    }
    const serviceId = newId();
    const username = input.name || v.name || `Guest_${id.userid.slice(0, 6)}`;
    const cfg = await loadSessionConfig(e.db, id.orgi);
    const admitted = await admit(
      e,
      {
        id: serviceId,
        orgi: id.orgi,
        userid: id.userid,
        username,
        appid: id.appid,
        channel: v.channel,
        status: 'inqueue',
        organ: input.skill || ap.organ,
        requested_agent: input.agent || null,
        createtime: now,
        name: input.name ?? '',
        phone: input.phone ?? '',
        email: input.email ?? '',
        resion: input.resion ?? '',
        title: input.title ?? v.title,
        url: input.url ?? v.url,
        traceid: input.traceid ?? '',
        ipaddr: v.ip,
        osname: input.osname ?? v.os,
        browser: input.browser ?? v.browser,
        source: v.source,
        country: v.country,
        province: v.province,
        city: v.city,
      },
      {
        id: newId(),
        orgi: id.orgi,
        agentserviceid: serviceId,
        userid: id.userid,
        username,
        agentno: null,
        status: 'inqueue',
        createtime: now,
        updatetime: now,
      },
      cfg,
    );
    if (admitted.agent) {
      placement = { service: admitted.service, agent: admitted.agent };
      await announceAssigned(e, serviceId, admitted.agent.id, false, {
        service: admitted.service,
        entry: admitted.entry,
        info: admitted.agent,
        cfg,
      });
      await publishReport(e, id.orgi, 'acd', 'success', '');
    } else {
      const placed = watchPlacement(e, serviceId);
      try {
        await drainQueue(e, id.orgi);
      } finally {
        placement = placed();
      }
    }
    await publishReport(e, id.orgi, 'visitor', 'new', serviceId);
    s = placement?.service ?? (await srepo.findService(k, serviceId));
  }
  if (!s) throw new AppError('server_error', 500);
  return {
    agentserviceid: s.id,
    status: s.status as VisitorNewResult['status'],
    position: s.status === 'inqueue' ? s.queneindex : null,
    agent:
      s.agentno && s.status === 'inservice'
        ? s.agentno === placement?.agent.id
          ? placement.agent
          : await agentInfo(e, s.agentno)
        : null,
  };
}
