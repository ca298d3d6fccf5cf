import type { z } from 'zod';
import type { Selectable } from 'kysely';
import type { visitorNewSchema } from '@kefu/protocol';
import type { Database } from '../../platform/db/schema.js';
import { notFound } from '../../platform/http/errors.js';
import { newTimeId } from '../../platform/ids.js';
import { isVisitorBlocked } from '../black/black.repository.js';
import { workTimeDecisionOn } from '../workservice/workservice.service.js';
import type { Engine } from './engine.js';
import * as srepo from './service.repository.js';
import type { AgentServiceRow } from './presenter.js';
import { sessionConfigOn, type SessionConfig } from './session-config.js';
import { admit, type Admitted } from './admission.js';
import { robotOfAccessPoint } from '../robot/binding.js';
import { batched, runFixed, type Sql } from './hot-sql.js';

export interface Requester {
  userid: string;
  orgi: string;
  appid: string;
}

/** How a visitor's `new` came out of the checks and the store. */
export type Intake =
  | { kind: 'blocked'; cfg: SessionConfig }
  | { kind: 'closed'; message: string; schedule?: string }
  | { kind: 'open'; service: AgentServiceRow }
  | { kind: 'stored'; admitted: Admitted; cfg: SessionConfig };

type VisitorRow = Selectable<Database['visitor']>;
/** What a new conversation copies from its visitor, and its access point's organ (`ap`: whether it exists). */
type Origin = Pick<
  VisitorRow,
  | 'name'
  | 'channel'
  | 'title'
  | 'url'
  | 'ip'
  | 'os'
  | 'browser'
  | 'source'
  | 'country'
  | 'province'
  | 'city'
  | 'language'
> & { ap: string | null; organ: string | null };
/**
 * One statement for both rows, and only the columns used (the whole visitor row has its token hash too). A
 * messaging-platform user's "access point" is its channel account (modules/channels), routed to its skill group.
 */
const ORIGIN = `select coalesce(ap.id, ca.id) as ap, coalesce(ap.organ, ca.organ) as organ, v.name, v.channel,
  v.title, v.url, v.ip, v.os, v.browser, v.source, v.country, v.province, v.city, v.language
  from visitor v left join access_point ap on ap.id = ? left join channel_account ca on ca.id = v.appid
  where v.id = ?`;

/** A URL of our own widget pages (the chat iframe), not a page of the website the visitor is on. */
export const ownPage = (url: string | undefined): boolean => {
  try {
    return !!url && new URL(url).pathname.startsWith('/visitor/');
  } catch {
    return false;
  }
};

/**
 * The page of the website the visitor chats from: the widget's report, unless it reported only its own
 * iframe (it asked before the host page told it where it is), then the embed loader's last report of the
 * same trace.
 */
async function hostPage(
  k: Sql,
  orgi: string,
  input: z.infer<typeof visitorNewSchema>,
): Promise<{ url: string; title: string } | null> {
  if (input.url && !ownPage(input.url)) return { url: input.url, title: input.title ?? '' };
  if (!input.traceid) return null;
  const row = (await runFixed<{ url: string; title: string }>(k, TRACE_PAGE, [orgi, input.traceid])).rows[0];
  return row ?? null;
}
const TRACE_PAGE = 'select url, title from online_visitor where orgi = ? and traceid = ?';

/**
 * Blacklist, open conversation, access point, working hours and settings, then the new conversation
 * (seated at once or queued, see admission): one unit of a shared transaction (see hot-sql batched),
 * emitting nothing; the caller tells the visitor and the agent once it resolves (after the commit).
 */
export function intake(
  e: Engine,
  id: Requester,
  input: z.infer<typeof visitorNewSchema>,
  now: number,
): Promise<Intake> {
  return batched(e.db, async (k): Promise<Intake> => {
    if (await isVisitorBlocked(k, id.orgi, id.userid, now))
      return { kind: 'blocked', cfg: await sessionConfigOn(k, id.orgi) };
    const open = await srepo.openServiceOf(k, id.orgi, id.userid);
    if (open) return { kind: 'open', service: open };
    const v = (await runFixed<Origin>(k, ORIGIN, [id.appid, id.userid])).rows[0];
    if (!v?.ap) throw notFound('access_point_not_found');
    const organ = input.skill || v.organ;
    // An access point with a robot starts its chats with the robot, at any hour (modules/robot).
    const robot = await robotOfAccessPoint(k, id.appid);
    const hours = robot ? null : await workTimeDecisionOn(k, id.orgi, organ, now);
    if (hours && !hours.open) return { kind: 'closed', message: hours.message, schedule: hours.schedule };
    const cfg = await sessionConfigOn(k, id.orgi);
    const page = await hostPage(k, id.orgi, input);
    // Time-ordered keys, as for messages: a new conversation and its entry land at the end of their
    // primary-key indexes instead of dirtying a random page of each per chat.
    const serviceId = newTimeId(now);
    const username = input.name || v.name || `Guest_${id.userid.slice(0, 6)}`;
    const admitted = await admit(
      e,
      k,
      {
        id: serviceId,
        orgi: id.orgi,
        userid: id.userid,
        username,
        appid: id.appid,
        channel: v.channel,
        status: 'inqueue',
        organ,
        requested_agent: input.agent || null,
        agentno: null,
        agentusername: '',
        createtime: now,
        servicetime: null,
        waittime: 0,
        queneindex: 0,
        lastseq: 0,
        name: input.name ?? '',
        phone: input.phone ?? '',
        email: input.email ?? '',
        resion: input.resion ?? '',
        title: page?.title ?? v.title,
        url: page?.url ?? v.url,
        traceid: input.traceid ?? '',
        ipaddr: v.ip,
        osname: input.osname ?? v.os,
        browser: input.browser ?? v.browser,
        source: v.source,
        country: v.country,
        province: v.province,
        city: v.city,
        language: v.language,
      },
      {
        id: newTimeId(now),
        orgi: id.orgi,
        agentserviceid: serviceId,
        userid: id.userid,
        username,
        agentno: null,
        status: 'inqueue',
        tokenum: 0,
        over: 0,
        visible: 1,
        lastmsg: '',
        lastmessage: null,
        lastgetmessage: null,
        // The visitor's language: the agent's replies go to it and the console translates from it.
        langto: v.language,
        createtime: now,
        servicetime: null,
        updatetime: now,
      },
      cfg,
      robot,
    );
    return { kind: 'stored', admitted, cfg };
  });
}
