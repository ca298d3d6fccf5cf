import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import { PHONE_RE, isEmailList, type ContactListQuery, userDisplayName } from '@kefu/protocol';
import type { DataScope } from '../../platform/auth/data-scope.js';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import type { ContactTable } from '../../platform/db/schema-contacts.js';
import { containsPattern } from '../../platform/db/like.js';
import type { Paging } from '../../platform/http/paging.js';
import { offsetOf } from '../../platform/http/paging.js';

type Kdb = Db['kysely'];
export type ContactRow = Selectable<ContactTable>;

/** Identity kinds that mirror the contact's own fields (the duplicate check); every other kind is a channel. */
export const KEY_KINDS = ['phone', 'email'] as const;

/** Lower-cased name, mobile, emails and company: what the list's keyword is looked for in. */
export const searchKeyOf = (c: Pick<ContactRow, 'name' | 'phone' | 'email' | 'company'>): string =>
  [c.name, c.phone, c.email, c.company].join(' ').toLowerCase();

export const findContact = (k: Kdb, orgi: string, id: string) =>
  k.selectFrom('contact').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export const contactsByIds = (k: Kdb, orgi: string, ids: readonly string[]) =>
  ids.length === 0
    ? Promise.resolve([] as ContactRow[])
    : k.selectFrom('contact').selectAll().where('orgi', '=', orgi).where('id', 'in', ids).execute();

export const insertContact = (k: Kdb, row: ContactRow) => k.insertInto('contact').values(row).execute();

export const updateContact = (k: Kdb, id: string, patch: Partial<ContactRow>) =>
  k.updateTable('contact').set(patch).where('id', '=', id).execute();

/** The contact, its identities and its tags. */
export async function deleteContact(k: Kdb, id: string): Promise<void> {
  await k.deleteFrom('contact_identity').where('contactid', '=', id).execute();
  await k.deleteFrom('contact_tag').where('contactid', '=', id).execute();
  await k.deleteFrom('contact').where('id', '=', id).execute();
}

// ---- identities and duplicate keys

/** Which of the phone / email keys already belong to a contact other than `exceptId`. */
export async function takenKeys(
  k: Kdb,
  orgi: string,
  keys: { phone: string; emails: readonly string[] },
  exceptId: string | null,
): Promise<Array<{ kind: string; value: string }>> {
  if (!keys.phone && keys.emails.length === 0) return [];
  let q = k
    .selectFrom('contact_identity')
    .select(['kind', 'value'])
    .where('orgi', '=', orgi)
    .where((eb) =>
      eb.or([
        ...(keys.phone ? [eb.and([eb('kind', '=', 'phone'), eb('value', '=', keys.phone)])] : []),
        ...(keys.emails.length ? [eb.and([eb('kind', '=', 'email'), eb('value', 'in', keys.emails)])] : []),
      ]),
    );
  if (exceptId) q = q.where('contactid', '!=', exceptId);
  return q.execute();
}

/** Replaces the contact's phone / email keys with those of its current fields. */
export async function setKeys(
  k: Kdb,
  orgi: string,
  contactid: string,
  keys: { phone: string; emails: readonly string[] },
  now: number,
): Promise<void> {
  await k
    .deleteFrom('contact_identity')
    .where('contactid', '=', contactid)
    .where('kind', 'in', KEY_KINDS)
    .execute();
  const rows = [
    ...(keys.phone ? [{ kind: 'phone', value: keys.phone }] : []),
    ...keys.emails.map((value) => ({ kind: 'email', value })),
  ].map((r) => ({ ...r, orgi, contactid, createtime: now }));
  if (rows.length) await k.insertInto('contact_identity').values(rows).execute();
}

/** The contact linked to a visitor / platform user, if any. */
export const contactIdOf = async (k: Kdb, orgi: string, channel: string, userid: string) =>
  (
    await k
      .selectFrom('contact_identity')
      .select('contactid')
      .where('orgi', '=', orgi)
      .where('kind', '=', channel)
      .where('value', '=', userid)
      .executeTakeFirst()
  )?.contactid ?? null;

/** Links a visitor / platform user to the contact (moving it off any other contact). */
export async function link(
  k: Kdb,
  orgi: string,
  contactid: string,
  channel: string,
  userid: string,
  now: number,
): Promise<void> {
  await k
    .deleteFrom('contact_identity')
    .where('orgi', '=', orgi)
    .where('kind', '=', channel)
    .where('value', '=', userid)
    .execute();
  await k
    .insertInto('contact_identity')
    .values({ orgi, kind: channel, value: userid, contactid, createtime: now })
    .execute();
}

/** Channel identities (not the phone / email keys) of the contacts. */
export const channelIdentities = (k: Kdb, contactids: readonly string[]) =>
  contactids.length === 0
    ? Promise.resolve([])
    : k
        .selectFrom('contact_identity')
        .select(['contactid', 'kind', 'value', 'createtime'])
        .where('contactid', 'in', contactids)
        .where('kind', 'not in', KEY_KINDS)
        .orderBy('createtime')
        .execute();

/** Moves every channel identity of `from` to `to` (a merge); the phone / email keys are rebuilt by the caller. */
export async function moveIdentities(k: Kdb, from: string, to: string): Promise<void> {
  await k
    .deleteFrom('contact_identity')
    .where('contactid', '=', from)
    .where('kind', 'in', KEY_KINDS)
    .execute();
  await k.updateTable('contact_identity').set({ contactid: to }).where('contactid', '=', from).execute();
}

// ---- tags

export const tagIdsOf = (k: Kdb, contactids: readonly string[]) =>
  contactids.length === 0
    ? Promise.resolve([])
    : k
        .selectFrom('contact_tag')
        .select(['contactid', 'tagid'])
        .where('contactid', 'in', contactids)
        .execute();

export async function setTags(
  k: Kdb,
  orgi: string,
  contactid: string,
  tagids: readonly string[],
): Promise<void> {
  await k.deleteFrom('contact_tag').where('contactid', '=', contactid).execute();
  if (tagids.length)
    await k
      .insertInto('contact_tag')
      .values(tagids.map((tagid) => ({ contactid, tagid, orgi })))
      .execute();
}

// ---- the list

function scopeFilter(eb: ExpressionBuilder<Database, 'contact'>, s: DataScope) {
  if (s.kind === 'all') return eb.lit(true);
  const own = eb('contact.owner', '=', s.userid);
  if (s.kind === 'own' || s.organs.length === 0) return own;
  return eb.or([own, eb('contact.organ', 'in', s.organs)]);
}

/** The list's filter. A whole mobile or email is looked up by its key; other keywords by contains. */
function listFilter(orgi: string, s: DataScope, f: ContactListQuery, keyHit: string | null | undefined) {
  return (eb: ExpressionBuilder<Database, 'contact'>) => {
    const conds: Expression<SqlBool>[] = [eb('contact.orgi', '=', orgi), scopeFilter(eb, s)];
    if (keyHit !== undefined) conds.push(eb('contact.id', '=', keyHit ?? ''));
    else if (f.q)
      conds.push(sql<boolean>`${sql.ref('contact.searchkey')} like ${containsPattern(f.q)} escape '\\'`);
    if (f.tag)
      conds.push(
        eb('contact.id', 'in', eb.selectFrom('contact_tag').select('contactid').where('tagid', '=', f.tag)),
      );
    if (f.owner) conds.push(eb('contact.owner', '=', f.owner));
    if (f.gender !== undefined) conds.push(eb('contact.gender', '=', f.gender));
    if (f.begin !== undefined) conds.push(eb('contact.createtime', '>=', f.begin));
    if (f.end !== undefined) conds.push(eb('contact.createtime', '<=', f.end));
    return eb.and(conds);
  };
}

/**
 * `undefined` when the keyword is not a whole key (search by contains), else the id of the contact that
 * holds it (null: none).
 */
export async function keyLookup(
  k: Kdb,
  orgi: string,
  q: string | undefined,
): Promise<string | null | undefined> {
  if (!q) return undefined;
  const kind = PHONE_RE.test(q) ? 'phone' : !q.includes(',') && isEmailList(q, false) ? 'email' : null;
  if (!kind) return undefined;
  return contactIdOf(k, orgi, kind, q.toLowerCase());
}

export async function listContacts(
  k: Kdb,
  orgi: string,
  s: DataScope,
  f: ContactListQuery,
  pg: Paging,
): Promise<{ rows: ContactRow[]; total: number }> {
  const keyHit = await keyLookup(k, orgi, f.q);
  const [rows, total] = await Promise.all([
    k
      .selectFrom('contact')
      .selectAll()
      .where(listFilter(orgi, s, f, keyHit))
      .orderBy('contact.createtime', 'desc')
      .orderBy('contact.id', 'desc')
      .limit(pg.ps)
      .offset(offsetOf(pg))
      .execute(),
    countContacts(k, orgi, s, f, keyHit),
  ]);
  return { rows, total };
}

/** How many contacts the filter matches. */
export async function countContacts(
  k: Kdb,
  orgi: string,
  s: DataScope,
  f: ContactListQuery,
  keyHit?: string | null,
): Promise<number> {
  const hit = keyHit === undefined ? await keyLookup(k, orgi, f.q) : keyHit;
  const r = await k
    .selectFrom('contact')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(listFilter(orgi, s, f, hit))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The contacts of `ids` within the scope, `batch` at a time (newest first within a batch). */
export async function* iterateContactsByIds(
  k: Kdb,
  orgi: string,
  s: DataScope,
  ids: readonly string[],
  batch = 500,
): AsyncGenerator<ContactRow[]> {
  for (let i = 0; i < ids.length; i += batch) {
    const rows = await k
      .selectFrom('contact')
      .selectAll()
      .where((eb) => eb.and([eb('contact.orgi', '=', orgi), scopeFilter(eb, s)]))
      .where('contact.id', 'in', ids.slice(i, i + batch))
      .orderBy('contact.createtime', 'desc')
      .orderBy('contact.id', 'desc')
      .execute();
    if (rows.length) yield rows;
  }
}

/** Every contact the filter matches, in list order, `batch` rows at a time (exports). */
export async function* iterateContacts(
  k: Kdb,
  orgi: string,
  s: DataScope,
  f: ContactListQuery,
  batch = 500,
): AsyncGenerator<ContactRow[]> {
  const where = listFilter(orgi, s, f, await keyLookup(k, orgi, f.q));
  let after: { createtime: number; id: string } | null = null;
  for (;;) {
    let q = k.selectFrom('contact').selectAll().where(where);
    if (after) {
      const a: { createtime: number; id: string } = after;
      q = q.where((eb) =>
        eb.or([
          eb('contact.createtime', '<', a.createtime),
          eb.and([eb('contact.createtime', '=', a.createtime), eb('contact.id', '<', a.id)]),
        ]),
      );
    }
    const rows = await q
      .orderBy('contact.createtime', 'desc')
      .orderBy('contact.id', 'desc')
      .limit(batch)
      .execute();
    if (rows.length) yield rows;
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    after = { createtime: Number(last.createtime), id: last.id };
  }
}

// ---- the timeline

/** The conversations of every channel identity of the contact, newest first. */
export async function timeline(k: Kdb, orgi: string, contactid: string, pg: Paging) {
  const mine = (eb: ExpressionBuilder<Database, 'agent_service'>) =>
    eb.and([
      eb('agent_service.orgi', '=', orgi),
      eb(
        'agent_service.userid',
        'in',
        eb
          .selectFrom('contact_identity')
          .select('contact_identity.value')
          .where('contact_identity.contactid', '=', contactid)
          .where('contact_identity.kind', 'not in', KEY_KINDS),
      ),
    ]);
  const [rows, count] = await Promise.all([
    k
      .selectFrom('agent_service')
      .leftJoin('service_topic', 'service_topic.id', 'agent_service.topicid')
      .select([
        'agent_service.id',
        'agent_service.channel',
        'agent_service.userid',
        'agent_service.username',
        'agent_service.status',
        'agent_service.agentno',
        'agent_service.agentusername',
        'agent_service.createtime',
        'agent_service.endtime',
        'agent_service.userasks',
        'agent_service.agentreplys',
        'agent_service.topicid',
        'agent_service.summary',
        'service_topic.name as topicname',
      ])
      .where(mine)
      .orderBy('agent_service.createtime', 'desc')
      .orderBy('agent_service.id', 'desc')
      .limit(pg.ps)
      .offset(offsetOf(pg))
      .execute(),
    k
      .selectFrom('agent_service')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(mine)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Display names of users (owner column). */
export const userNames = async (k: Kdb, ids: readonly string[]): Promise<Map<string, string>> => {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await k
    .selectFrom('users')
    .select(['id', 'uname', 'nickname', 'username'])
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((u) => [u.id, userDisplayName(u)]));
};
