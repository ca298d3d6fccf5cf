import type { z } from 'zod';
import {
  LEAVEMSG_DEFAULT,
  hasPermission,
  leavemsgFields,
  type LeaveMessageDto,
  type LeavemsgConfig,
  type Page,
  type leaveMessageSchema,
  type leavemsgAllocateSchema,
  type leavemsgCompleteSchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, forbidden, notFound, unauthorized } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { offsetOf, pageOf, type Paging } from '../../platform/http/paging.js';
import { accessByAppid } from '../access/access.repository.js';
import { loadSection } from '../access/settings.repository.js';
import { visitorTokenValid } from '../access/visitor-credential.js';
import * as repo from './leavemsg.repository.js';
import { presentLeave } from './leavemsg.presenter.js';
import { webhookEvent } from '../integration/webhook.events.js';

/** Supervisors (monitor rights) see every message and allocate; agents see and complete their own. */
export const LEAVEMSG_ADMIN_CODE = 'A03';
export const LEAVEMSG_AGENT_CODE = 'A01';

const isAdmin = (p: Principal) => hasPermission(p.usertype, p.auth, LEAVEMSG_ADMIN_CODE);

/**
 * A visitor's message: the access point's settings decide which fields are kept and which are
 * required; formats were checked by the schema. Nothing is stored unless everything passes.
 */
export async function submit(
  db: Db,
  input: z.infer<typeof leaveMessageSchema>,
  ip: string,
): Promise<{ id: string }> {
  const k = db.kysely;
  const ap = await accessByAppid(k, input.appid);
  if (!ap) throw notFound('access_point_not_found');
  const cfg = await loadSection<LeavemsgConfig>(
    k,
    ap.orgi,
    ap.id,
    'leavemsg',
    leavemsgFields,
    LEAVEMSG_DEFAULT,
  );
  if (!cfg.enabled) throw badRequest('leavemsg_disabled');
  if (input.token && !(await visitorTokenValid(k, ap.orgi, input.userid, input.token)))
    throw unauthorized('visitor_token');
  const values = { name: input.name, mobile: input.mobile, email: input.email, content: input.content };
  const missing: Record<string, string> = {};
  for (const key of ['name', 'mobile', 'email', 'content'] as const) {
    const rule = key === 'content' ? { show: true, required: true } : cfg.fields[key];
    if (!rule.show) values[key] = '';
    else if (rule.required && values[key] === '') missing[key] = 'required';
  }
  if (Object.keys(missing).length) throw badRequest('required', missing);
  const now = Date.now();
  const id = newId();
  await k
    .insertInto('leave_message')
    .values({
      id,
      orgi: ap.orgi,
      appid: ap.id,
      userid: input.userid,
      ...values,
      status: 'new',
      agentno: null,
      allocator: null,
      allocatetime: null,
      donetime: null,
      ip: ip.slice(0, 64),
      createtime: now,
      updatetime: now,
    })
    .execute();
  webhookEvent(db, ap.orgi, 'leavemsg.created', {
    id,
    appid: ap.id,
    userid: input.userid,
    ...values,
    createtime: now,
  });
  return { id };
}

async function pageFor(
  db: Db,
  orgi: string,
  f: repo.LeaveFilter,
  pg: Paging,
): Promise<Page<LeaveMessageDto>> {
  const [rows, n] = await Promise.all([
    repo.page(db.kysely, orgi, f, offsetOf(pg), pg.ps),
    repo.total(db.kysely, orgi, f),
  ]);
  return pageOf(rows.map(presentLeave), n, pg);
}

export const list = (db: Db, p: Principal, f: repo.LeaveFilter, pg: Paging) => pageFor(db, p.orgi, f, pg);

export const mylist = (db: Db, p: Principal, f: repo.LeaveFilter, pg: Paging) =>
  pageFor(db, p.orgi, { ...f, agentno: p.id }, pg);

/** Messages waiting for this user: allocated to them and open, plus unallocated ones for supervisors. */
export async function size(db: Db, p: Principal): Promise<number> {
  const mine = await repo.total(db.kysely, p.orgi, { agentno: p.id, status: 'allocated' });
  return isAdmin(p) ? mine + (await repo.total(db.kysely, p.orgi, { status: 'new' })) : mine;
}

/** All-or-nothing: every message must exist and be open; the agent must be an active user of the tenant. */
export async function allocate(
  db: Db,
  p: Principal,
  input: z.infer<typeof leavemsgAllocateSchema>,
): Promise<LeaveMessageDto[]> {
  return db.kysely.transaction().execute(async (k) => {
    const agent = await k
      .selectFrom('users')
      .select(['id', 'disabled'])
      .where('orgi', '=', p.orgi)
      .where('id', '=', input.agentno)
      .executeTakeFirst();
    if (!agent || agent.disabled) throw badRequest('invalid_field', { agentno: 'invalid_field' });
    const now = Date.now();
    const out: LeaveMessageDto[] = [];
    for (const id of new Set(input.ids)) {
      const row = await repo.findLeave(k, p.orgi, id);
      if (!row) throw notFound();
      if (row.status === 'done') throw badRequest('leavemsg_done');
      const next = {
        status: 'allocated',
        agentno: agent.id,
        allocator: p.id,
        allocatetime: now,
        updatetime: now,
      };
      await k.updateTable('leave_message').set(next).where('id', '=', id).execute();
      out.push(presentLeave({ ...row, ...next }));
    }
    return out;
  });
}

/** The allocated agent (or a supervisor) closes the message with an optional note. */
export async function complete(
  db: Db,
  p: Principal,
  input: z.infer<typeof leavemsgCompleteSchema>,
): Promise<LeaveMessageDto> {
  const k = db.kysely;
  const row = await repo.findLeave(k, p.orgi, input.id);
  if (!row) throw notFound();
  if (row.agentno !== p.id && !isAdmin(p)) throw forbidden();
  if (row.status === 'done') throw badRequest('leavemsg_done');
  const now = Date.now();
  const next = {
    status: 'done',
    note: input.note ?? '',
    donetime: now,
    updatetime: now,
    agentno: row.agentno ?? p.id,
  };
  const r = await k
    .updateTable('leave_message')
    .set(next)
    .where('id', '=', row.id)
    .where('status', '=', row.status)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw badRequest('leavemsg_done');
  return presentLeave({ ...row, ...next });
}
