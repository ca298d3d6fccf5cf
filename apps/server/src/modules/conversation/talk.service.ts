import type { AgentUserDto, MessageDto, Page, TalkSort } from '@kefu/protocol';
import type { z } from 'zod';
import type { blackBody, chatMessageQuery, inviteBody, tagRelationBody } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import type { Engine } from './engine.js';
import * as arepo from './agent-status.repository.js';
import { presenceOf } from './presence.service.js';
import { pageViews } from '../online/online.repository.js';
import { presentPageView } from '../online/online.presenter.js';
import * as mrepo from './message.repository.js';
import * as srepo from './service.repository.js';
import { presentAgentUser, presentMessage, type AgentServiceRow, type ChatMessageRow } from './presenter.js';
import { contactOfConversation } from '../contacts/contacts.service.js';
import { conversationTagIds } from '../tags/tags.repository.js';
import { checkedTags } from '../tags/tags.service.js';
import { summaryOf } from '../tags/summary.service.js';
import { conversationChanged } from '../analysis/hooks.js';
import {
  announceCollaborationLeft,
  blacklist,
  closeEntry,
  endConversation,
  inviteCollaborator,
  inviteSatisfaction,
} from './lifecycle.service.js';

/** Pages of the visitor's trail shown beside a chat (newest first). */
const TRAIL_LIMIT = 20;

function isMonitor(p: Principal): boolean {
  if (p.usertype === '0') return true;
  for (const c in p.auth) if (c.startsWith('A03') || c.startsWith('A04')) return true;
  return false;
}

/** A conversation the agent may read: its own (now or before), one it collaborates on, or any with monitor rights. */
export async function followed(e: Engine, p: Principal, agentserviceid: string): Promise<AgentServiceRow> {
  const s = await srepo.findService(e.db.kysely, agentserviceid);
  if (!s || s.orgi !== p.orgi) throw notFound('conversation_not_found');
  if (s.agentno === p.id || isMonitor(p)) return s;
  if ((await srepo.collaboratorsOf(e.db.kysely, s.id)).includes(p.id)) return s;
  const was = await e.db.kysely
    .selectFrom('transfer_request')
    .select('id')
    .where('agentserviceid', '=', s.id)
    .where('from_agent', '=', p.id)
    .executeTakeFirst();
  if (was) return s;
  throw forbidden('not_conversation_owner');
}

async function owned(e: Engine, p: Principal, agentserviceid: string): Promise<AgentServiceRow> {
  const s = await srepo.findService(e.db.kysely, agentserviceid);
  if (!s || s.orgi !== p.orgi) throw notFound('conversation_not_found');
  if (s.agentno !== p.id) throw forbidden('not_conversation_owner');
  return s;
}

export async function openOfVisitor(e: Engine, p: Principal, userid: string): Promise<AgentServiceRow> {
  const s = await srepo.latestServiceOf(e.db.kysely, p.orgi, userid);
  if (!s) throw notFound('conversation_not_found');
  return followed(e, p, s.id);
}

export async function agentUserList(
  e: Engine,
  p: Principal,
  sort: TalkSort,
): Promise<{ agentUserList: AgentUserDto[]; businessList: never[] }> {
  const now = e.clock.now();
  const entries = await srepo.visibleEntries(e.db.kysely, p.id);
  const presence = await presenceOf(
    e.db.kysely,
    entries.map(({ au }) => au.userid),
  );
  const list = entries.map(({ au, s }) => ({ ...presentAgentUser(au, s, now), ...presence.get(au.userid) }));
  const key = (a: AgentUserDto) =>
    sort === 'lastmessage' ? (a.lastmessage ?? a.servicetime ?? 0) : (a.servicetime ?? 0);
  list.sort((a, b) => key(b) - key(a));
  return { agentUserList: list, businessList: [] };
}

export async function chatData(e: Engine, p: Principal, q: { id?: string; userid?: string }) {
  const k = e.db.kysely;
  const au = q.id
    ? await srepo.findAgentUser(k, q.id)
    : q.userid
      ? await k
          .selectFrom('agent_user')
          .selectAll()
          .where('userid', '=', q.userid)
          .where('orgi', '=', p.orgi)
          .orderBy('createtime', 'desc')
          .executeTakeFirst()
      : undefined;
  if (!au) throw notFound('conversation_not_found');
  const s = await followed(e, p, au.agentserviceid);
  const visitor = await k
    .selectFrom('visitor')
    .select([
      'id',
      'name',
      'phone',
      'email',
      'ip',
      'browser',
      'os',
      'country',
      'province',
      'city',
      'region',
      'source',
      'url',
      'title',
      'channel',
      'createtime',
    ])
    .where('id', '=', s.userid)
    .executeTakeFirst();
  const [tags, summary, contact, trail] = await Promise.all([
    conversationTagIds(k, s.id),
    summaryOf(k, s),
    contactOfConversation(k, s),
    // The website pages the visitor went through (embed loader reports of the chat's trace).
    s.traceid ? pageViews(k, s.orgi, s.traceid, TRAIL_LIMIT) : [],
  ]);
  const { ...agentService } = s;
  return {
    agentUser: presentAgentUser(au, s, e.clock.now()),
    agentService,
    visitor: visitor ?? null,
    tags,
    summary,
    contact,
    trail: trail.map(presentPageView),
  };
}

export async function queueList(e: Engine, p: Principal): Promise<AgentUserDto[]> {
  const k = e.db.kysely;
  const qs = await srepo.queued(k, p.orgi);
  const aus = await k
    .selectFrom('agent_user')
    .selectAll()
    .where('agentserviceid', 'in', qs.length ? qs.map((s) => s.id) : [''])
    .execute();
  const byService = new Map(aus.map((a) => [a.agentserviceid, a]));
  const now = e.clock.now();
  return qs.flatMap((s) => {
    const au = byService.get(s.id);
    return au ? [presentAgentUser(au, s, now)] : [];
  });
}

/** Cursor of a history page: the last row's end time and id (`<endtime>:<id>`). */
const endedCursor = (r: AgentServiceRow): string => `${r.endtime ?? 0}:${r.id}`;

/**
 * The agent's ended conversations, newest end first, on the (agentno, status, endtime, id) index.
 * `before` (a `next` cursor) pages by keyset, so a deep page costs what the first does; `p` still pages
 * by offset for older clients. `next` is null on the last page.
 */
export async function endedList(
  e: Engine,
  p: Principal,
  q: { p: number; ps: number; before?: string },
): Promise<{ agentServices: Page<AgentServiceRow> & { next: string | null } }> {
  const k = e.db.kysely;
  const base = k.selectFrom('agent_service').where('agentno', '=', p.id).where('status', '=', 'end');
  let page = base.selectAll();
  if (q.before) {
    const cut = q.before.indexOf(':');
    const endtime = Number(q.before.slice(0, cut));
    const id = q.before.slice(cut + 1);
    // endtime <= E bounds the index range; the tie on E is settled by id.
    page = page
      .where('endtime', '<=', endtime)
      .where((eb) => eb.or([eb('endtime', '<', endtime), eb('id', '<', id)]));
  } else if (q.p > 1) page = page.offset((q.p - 1) * q.ps);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    page
      .orderBy('endtime', 'desc')
      .orderBy('id', 'desc')
      .limit(q.ps + 1)
      .execute(),
  ]);
  const more = rows.length > q.ps;
  const list = more ? rows.slice(0, q.ps) : rows;
  return {
    agentServices: {
      list,
      total: Number(count?.n ?? 0),
      page: q.p,
      size: q.ps,
      next: more ? endedCursor(list[list.length - 1]!) : null,
    },
  };
}

export async function messages(
  e: Engine,
  p: Principal,
  q: z.infer<typeof chatMessageQuery>,
): Promise<{ list: MessageDto[]; hasMore: boolean; agentserviceid: string }> {
  let sid = q.agentserviceid;
  if (!sid && q.userid) sid = (await srepo.latestServiceOf(e.db.kysely, p.orgi, q.userid))?.id;
  if (!sid) throw badRequest('required', { agentserviceid: 'required' });
  // One fixed statement reads the page (keyset on the (agentserviceid, seq) index) and checks access
  // (the rule of `followed`). No rows: not allowed, or allowed and empty — the checked path tells which.
  const rows = await mrepo.followedPage(
    e.db.kysely,
    e.db.dialect,
    sid,
    { id: p.id, orgi: p.orgi, monitor: isMonitor(p) },
    q.after !== undefined ? { after: q.after } : { before: q.before },
    q.ps + 1,
  );
  if (rows.length === 0) return checkedMessages(e, p, sid, q);
  return messagePage(rows, q, sid);
}

/** The page after `followed` (which throws not-found / forbidden). */
async function checkedMessages(
  e: Engine,
  p: Principal,
  sid: string,
  q: z.infer<typeof chatMessageQuery>,
): Promise<{ list: MessageDto[]; hasMore: boolean; agentserviceid: string }> {
  const s = await followed(e, p, sid);
  const rows =
    q.after !== undefined
      ? await mrepo.messagesAfter(e.db.kysely, s.id, q.after, q.ps + 1)
      : await mrepo.messagesBefore(e.db.kysely, s.id, q.before, q.ps + 1);
  return messagePage(rows, q, s.id);
}

/** `ps + 1` rows (ascending) to the page: after → the first ps; before/newest → the last ps. */
function messagePage(
  rows: ChatMessageRow[],
  q: z.infer<typeof chatMessageQuery>,
  agentserviceid: string,
): { list: MessageDto[]; hasMore: boolean; agentserviceid: string } {
  const hasMore = rows.length > q.ps;
  const page = !hasMore ? rows : q.after !== undefined ? rows.slice(0, q.ps) : rows.slice(1);
  const list = new Array<MessageDto>(page.length);
  for (let i = 0; i < page.length; i++) list[i] = presentMessage(page[i]!);
  return { list, hasMore, agentserviceid };
}

export async function transferForm(e: Engine, p: Principal, organ?: string) {
  const k = e.db.kysely;
  const skillList = await k
    .selectFrom('organ')
    .select(['id', 'name', 'parentid'])
    .where('orgi', '=', p.orgi)
    .where('skill', '=', 1)
    .execute();
  const ready = (await arepo.readyCandidates(k, p.orgi, organ ?? null, null)).filter(
    (a) => a.userid !== p.id,
  );
  const users = ready.length
    ? await k
        .selectFrom('users')
        .select(['id', 'username', 'uname', 'nickname', 'organ'])
        .where(
          'id',
          'in',
          ready.map((a) => a.userid),
        )
        .execute()
    : [];
  const byId = new Map(ready.map((a) => [a.userid, a]));
  const agentList = users.map((u) => ({
    ...u,
    status: byId.get(u.id)?.status,
    users: byId.get(u.id)?.users,
    maxusers: byId.get(u.id)?.maxusers,
  }));
  return { skillList, agentList };
}

export async function endByAgent(
  e: Engine,
  p: Principal,
  query: { agentserviceid?: string; agentuserid?: string },
): Promise<void> {
  let sid = query.agentserviceid;
  if (!sid && query.agentuserid)
    sid = (await srepo.findAgentUser(e.db.kysely, query.agentuserid))?.agentserviceid;
  if (!sid) throw badRequest('required', { agentserviceid: 'required' });
  const s = await owned(e, p, sid);
  if (s.status === 'end') await closeEntry(e, s.id, p.id);
  else await endConversation(e, s.id, 'agent');
}

export async function statf(e: Engine, p: Principal, agentserviceid: string): Promise<void> {
  const s = await owned(e, p, agentserviceid);
  await inviteSatisfaction(e, s);
}

export async function tagRelation(
  e: Engine,
  p: Principal,
  b: z.infer<typeof tagRelationBody>,
): Promise<void> {
  const s = await followed(e, p, b.agentserviceid);
  const k = e.db.kysely;
  const on = b.checked === true || b.checked === 'true';
  // Only conversation (summary) tags of this organisation go on; taking one off needs no check.
  if (on) await checkedTags(k, s.orgi, 'summary', [b.tagid], 'tagid');
  await k
    .deleteFrom('agent_service_tag')
    .where('agentserviceid', '=', s.id)
    .where('tagid', '=', b.tagid)
    .execute();
  if (on) {
    await k
      .insertInto('agent_service_tag')
      .values({
        agentserviceid: s.id,
        tagid: b.tagid,
        orgi: s.orgi,
        creater: p.id,
        createtime: e.clock.now(),
      })
      .execute();
  }
  if (s.status === 'end') conversationChanged(e.db, s.orgi, s.id);
}

export async function invite(e: Engine, p: Principal, b: z.infer<typeof inviteBody>): Promise<void> {
  const au = await srepo.findAgentUser(e.db.kysely, b.agentuserid);
  if (!au) throw notFound('conversation_not_found');
  const s = await owned(e, p, au.agentserviceid);
  if (s.status !== 'inservice') throw badRequest('conversation_ended');
  const colleague = await e.db.kysely
    .selectFrom('users')
    .select(['id', 'orgi'])
    .where('id', '=', b.userid)
    .executeTakeFirst();
  if (!colleague || colleague.orgi !== p.orgi || colleague.id === p.id)
    throw badRequest('invalid_field', { userid: 'invalid_field' });
  await inviteCollaborator(e, s, p.id, colleague.id);
}

/** A collaborator leaves a chat it was invited to: the row goes, it is told `collaboration_leave`. */
export async function leaveCollaboration(e: Engine, p: Principal, agentuserid: string): Promise<void> {
  const k = e.db.kysely;
  const au = await srepo.findAgentUser(k, agentuserid);
  const s = au ? await srepo.findService(k, au.agentserviceid) : undefined;
  if (!au || !s || s.orgi !== p.orgi) throw notFound('conversation_not_found');
  if (!(await srepo.removeCollaborator(k, s.id, p.id))) throw forbidden('not_collaborator');
  announceCollaborationLeft(e, s, au.id, [p.id]);
}

export async function black(e: Engine, p: Principal, b: z.infer<typeof blackBody>): Promise<void> {
  const au = await srepo.findAgentUser(e.db.kysely, b.agentuserid);
  if (!au) throw notFound('conversation_not_found');
  const s = await owned(e, p, au.agentserviceid);
  await blacklist(e, s, p.id, b.controltime, b.description);
}
