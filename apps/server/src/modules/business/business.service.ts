import type { z } from 'zod';
import {
  BUSINESS_SIGN_MODE,
  CODES,
  hasPermission,
  type BusinessEncryptionDto,
  type BusinessLinkDto,
  type BusinessOpenType,
  type BusinessSystemDto,
  type CrmLinkDto,
  type businessSaveSchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError, badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import * as srepo from '../conversation/service.repository.js';
import * as repo from './business.repository.js';
import { newBusinessKey, signedUrl, type OpenContext } from './signing.js';

const present = (r: repo.BusinessRow): BusinessSystemDto => ({
  id: r.id,
  name: r.name,
  url: r.url,
  ticketurl: r.ticketurl,
  opentype: r.opentype as BusinessOpenType,
  enabled: r.enabled === 1,
  sortindex: Number(r.sortindex),
  createtime: Number(r.createtime),
  updatetime: Number(r.updatetime),
});

export const list = async (db: Db, p: Principal): Promise<BusinessSystemDto[]> =>
  (await repo.list(db.kysely, p.orgi)).map(present);

export async function save(
  db: Db,
  p: Principal,
  input: z.infer<typeof businessSaveSchema>,
): Promise<{ before: BusinessSystemDto | null; after: BusinessSystemDto }> {
  const k = db.kysely;
  const now = Date.now();
  const old = input.id ? await repo.find(k, p.orgi, input.id) : undefined;
  if (input.id && !old) throw notFound();
  if (await repo.nameTaken(k, p.orgi, input.name, old?.id ?? ''))
    throw badRequest('name_repeat', { name: 'name_repeat' });
  const fields = {
    name: input.name,
    url: input.url,
    ticketurl: input.ticketurl ?? old?.ticketurl ?? '',
    opentype: input.opentype,
    enabled: input.enabled === undefined ? (old?.enabled ?? 1) : input.enabled ? 1 : 0,
    updatetime: now,
  };
  if (old) {
    await repo.update(k, p.orgi, old.id, fields);
    return { before: present(old), after: present({ ...old, ...fields }) };
  }
  const row = {
    id: newId(),
    orgi: p.orgi,
    ...fields,
    secret: newBusinessKey(),
    mode: BUSINESS_SIGN_MODE,
    sortindex: (await repo.list(k, p.orgi)).length,
    creater: p.id,
    createtime: now,
  };
  await repo.insert(k, row);
  return { before: null, after: present(row) };
}

export async function remove(db: Db, p: Principal, id: string): Promise<void> {
  if ((await repo.remove(db.kysely, p.orgi, id)) === 0) throw notFound();
}

/** The signing key (and mode) of a system; `rotate`: a new key first (links signed with the old one fail). */
export async function encryption(
  db: Db,
  p: Principal,
  id: string,
  rotate = false,
): Promise<BusinessEncryptionDto> {
  const k = db.kysely;
  const row = await repo.find(k, p.orgi, id);
  if (!row) throw notFound();
  let key = row.secret;
  if (rotate) {
    key = newBusinessKey();
    await repo.update(k, p.orgi, id, { secret: key, updatetime: Date.now() });
  }
  return { id, mode: BUSINESS_SIGN_MODE, key };
}

/** The conversation as the caller may open systems for it: its owner, a collaborator, or a monitor. */
async function contextOf(db: Db, p: Principal, agentserviceid: string): Promise<OpenContext> {
  const k = db.kysely;
  const s = await srepo.findService(k, agentserviceid);
  if (!s || s.orgi !== p.orgi) throw notFound('conversation_not_found');
  const mine = s.agentno === p.id || (await srepo.collaboratorsOf(k, s.id)).includes(p.id);
  if (!mine && !hasPermission(p.usertype, p.auth, ['A03', 'A04'])) throw forbidden('not_conversation_owner');
  return {
    visitorid: s.userid,
    contactid: await repo.contactOf(k, p.orgi, s.channel, s.userid),
    conversationid: s.id,
    agent: p.username,
  };
}

/** The enabled systems for one conversation, their URLs filled in and signed (opened from /dialogue). */
export async function links(db: Db, p: Principal, agentserviceid: string): Promise<BusinessLinkDto[]> {
  const ctx = await contextOf(db, p, agentserviceid);
  const now = Date.now();
  return (await repo.list(db.kysely, p.orgi))
    .filter((r) => r.enabled === 1)
    .map((r) => ({
      id: r.id,
      name: r.name,
      opentype: r.opentype as BusinessOpenType,
      url: signedUrl(r.url, r.secret, ctx, now),
    }));
}

async function system(db: Db, p: Principal, product: string): Promise<repo.BusinessRow> {
  const row = await repo.find(db.kysely, p.orgi, product);
  if (!row || row.enabled !== 1) throw notFound();
  return row;
}

/** Links the conversation's visitor to a record of the system (addCrm). */
export async function addCrm(
  db: Db,
  p: Principal,
  product: string,
  agentserviceid: string,
  crmid: string,
): Promise<CrmLinkDto> {
  const row = await system(db, p, product);
  const ctx = await contextOf(db, p, agentserviceid);
  const now = Date.now();
  await repo.putCrmLink(db.kysely, {
    id: newId(),
    orgi: p.orgi,
    businessid: row.id,
    userid: ctx.visitorid,
    contactid: ctx.contactid,
    crmid,
    agentserviceid,
    creater: p.id,
    createtime: now,
  });
  return {
    businessid: row.id,
    userid: ctx.visitorid,
    crmid,
    url: signedUrl(row.url, row.secret, { ...ctx, crmid }, now),
    createtime: now,
  };
}

/** No linked record: code 10702, which the console never toasts (viewCrm and viewTicket are asked quietly). */
const notLinked = () => new AppError('crm_not_linked', CODES.silentNoData, undefined, 200);

/** The record linked to the conversation's visitor (viewCrm), with its signed URL. */
export async function viewCrm(
  db: Db,
  p: Principal,
  product: string,
  agentserviceid: string,
): Promise<CrmLinkDto> {
  const row = await system(db, p, product);
  const ctx = await contextOf(db, p, agentserviceid);
  const link = await repo.crmLink(db.kysely, p.orgi, row.id, ctx.visitorid);
  if (!link) throw notLinked();
  return {
    businessid: row.id,
    userid: ctx.visitorid,
    crmid: link.crmid,
    url: signedUrl(row.url, row.secret, { ...ctx, crmid: link.crmid }, Date.now()),
    createtime: Number(link.createtime),
  };
}

/** The system's ticket page for the visitor's linked record (viewTicket); needs a ticket URL template. */
export async function viewTicket(
  db: Db,
  p: Principal,
  product: string,
  agentserviceid: string,
): Promise<{ url: string }> {
  const row = await system(db, p, product);
  if (!row.ticketurl) throw notLinked();
  const ctx = await contextOf(db, p, agentserviceid);
  const link = await repo.crmLink(db.kysely, p.orgi, row.id, ctx.visitorid);
  return { url: signedUrl(row.ticketurl, row.secret, { ...ctx, crmid: link?.crmid ?? '' }, Date.now()) };
}
