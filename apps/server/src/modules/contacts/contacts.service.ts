import {
  CONTACTS_CODE,
  CONTACT_LIMITS,
  EMPTY_CONTACT_TEXTS,
  isEmailList,
  isPhone,
  type ContactDto,
  type ContactFieldsInput,
  type ContactListQuery,
  type ContactViewDto,
  type Page,
} from '@kefu/protocol';
import { dataScope, inScope, type DataScope } from '../../platform/auth/data-scope.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Db } from '../../platform/db/database.js';
import { rethrowUnique } from '../../platform/db/unique.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { pageOf, type Paging } from '../../platform/http/paging.js';
import { newTimeId } from '../../platform/ids.js';
import { checkedTags } from '../tags/tags.service.js';
import { tagsByIds } from '../tags/tags.repository.js';
import { presentTag } from '../tags/tags.presenter.js';
import * as repo from './contacts.repository.js';
import { presentContact, presentConversation } from './contacts.presenter.js';

type Kdb = Db['kysely'];
type Row = repo.ContactRow;

export const scopeOf = (k: Kdb, p: Principal): Promise<DataScope> => dataScope(k, p, CONTACTS_CODE);

const duplicate = (field: string) => badRequest('mobile_email_exists', { [field]: 'mobile_email_exists' });
const emailsOf = (email: string): string[] => (email ? email.split(',') : []);

/** Tags, identities and owner names of the rows, in three queries whatever the number of rows. */
export async function present(k: Kdb, orgi: string, rows: readonly Row[]): Promise<ContactDto[]> {
  const ids = rows.map((r) => r.id);
  const [links, identities, names] = await Promise.all([
    repo.tagIdsOf(k, ids),
    repo.channelIdentities(k, ids),
    repo.userNames(
      k,
      rows.flatMap((r) => (r.owner ? [r.owner] : [])),
    ),
  ]);
  const tags = new Map(
    (await tagsByIds(k, orgi, [...new Set(links.map((l) => l.tagid))])).map((t) => [t.id, presentTag(t)]),
  );
  return rows.map((r) =>
    presentContact(r, {
      tags: links.flatMap((l) => (l.contactid === r.id && tags.has(l.tagid) ? [tags.get(l.tagid)!] : [])),
      identities: identities.filter((i) => i.contactid === r.id),
      ownername: (r.owner && names.get(r.owner)) || '',
    }),
  );
}

const presentOne = async (k: Kdb, orgi: string, row: Row) => (await present(k, orgi, [row]))[0]!;

/** The contact, if the caller's scope holds it (404 when unknown, 403 when out of scope). */
export async function visibleContact(k: Kdb, p: Principal, s: DataScope, id: string): Promise<Row> {
  const row = await repo.findContact(k, p.orgi, id);
  if (!row) throw notFound();
  if (!inScope(s, row)) throw forbidden();
  return row;
}

/**
 * The row `input` makes of `cur` (or of a new contact), checked: the owner is a user of the organisation
 * (and, when set or on create, within the caller's scope), tags are contact tags, and neither the mobile
 * nor any email belongs to another contact (`mobile_email_exists`).
 */
async function prepare(
  k: Kdb,
  p: Principal,
  s: DataScope,
  cur: Row | null,
  input: Partial<ContactFieldsInput>,
  now: number,
): Promise<{ row: Row; tagids: string[] | undefined }> {
  const base: Row = cur ?? {
    id: newTimeId(now),
    orgi: p.orgi,
    name: '',
    ...EMPTY_CONTACT_TEXTS,
    owner: p.id,
    organ: p.organ,
    creater: p.id,
    searchkey: '',
    createtime: now,
    updatetime: now,
  };
  const { id: _id, tags, owner, ...fields } = input;
  const row: Row = { ...base, updatetime: now };
  for (const [key, v] of Object.entries(fields)) if (v !== undefined) Object.assign(row, { [key]: v });
  if (owner !== undefined) {
    row.owner = owner;
    row.organ = null;
    if (owner) {
      const u = await k
        .selectFrom('users')
        .select(['id', 'organ'])
        .where('orgi', '=', p.orgi)
        .where('id', '=', owner)
        .executeTakeFirst();
      if (!u) throw badRequest('invalid_field', { owner: 'invalid_field' });
      row.organ = u.organ;
    }
  }
  if ((owner !== undefined || !cur) && !inScope(s, row)) throw forbidden();
  if (!row.name) throw badRequest('required', { name: 'required' });
  row.searchkey = repo.searchKeyOf(row);
  const taken = await repo.takenKeys(
    k,
    p.orgi,
    { phone: row.phone, emails: emailsOf(row.email) },
    cur?.id ?? null,
  );
  if (taken.length) throw duplicate(taken[0]!.kind);
  const tagids =
    tags === undefined ? undefined : (await checkedTags(k, p.orgi, 'user', tags)).map((t) => t.id);
  return { row, tagids };
}

/** Stores what prepare made: the row, its phone / email keys, its tags. */
async function write(k: Kdb, cur: Row | null, next: { row: Row; tagids: string[] | undefined }, now: number) {
  const { row, tagids } = next;
  if (cur) await repo.updateContact(k, row.id, row);
  else await repo.insertContact(k, row);
  await repo.setKeys(k, row.orgi, row.id, { phone: row.phone, emails: emailsOf(row.email) }, now);
  if (tagids) await repo.setTags(k, row.orgi, row.id, tagids);
}

// A concurrent save that slipped past takenKeys hits the identity primary key.
const unique = rethrowUnique(() => badRequest('mobile_email_exists'));

/** Creates a contact inside the caller's transaction (the save call and each row of an import). */
export async function saveIn(
  k: Kdb,
  p: Principal,
  input: Partial<ContactFieldsInput>,
  scope?: DataScope,
): Promise<Row> {
  const now = Date.now();
  const next = await prepare(k, p, scope ?? (await scopeOf(k, p)), null, input, now);
  await write(k, null, next, now);
  return next.row;
}

/** Updates a contact of the caller's scope inside the caller's transaction. */
export async function updateIn(
  k: Kdb,
  p: Principal,
  input: ContactFieldsInput,
  scope?: DataScope,
): Promise<Row> {
  const s = scope ?? (await scopeOf(k, p));
  const cur = await visibleContact(k, p, s, input.id);
  const now = Date.now();
  const next = await prepare(k, p, s, cur, input, now);
  await write(k, cur, next, now);
  return next.row;
}

export async function save(db: Db, p: Principal, input: Partial<ContactFieldsInput>): Promise<ContactDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => presentOne(k, p.orgi, await saveIn(k, p, input)))
    .catch(unique);
}

export async function update(db: Db, p: Principal, input: ContactFieldsInput): Promise<ContactDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => presentOne(k, p.orgi, await updateIn(k, p, input)))
    .catch(unique);
}

/** Deletes the contact with its identities and tags; the conversations stay (they belong to the visitors). */
export async function remove(db: Db, p: Principal, id: string): Promise<null> {
  await db.kysely.transaction().execute(async (k) => {
    await visibleContact(k, p, await scopeOf(k, p), id);
    await repo.deleteContact(k, id);
  });
  return null;
}

export async function list(db: Db, p: Principal, f: ContactListQuery, pg: Paging): Promise<Page<ContactDto>> {
  const k = db.kysely;
  if (f.begin !== undefined && f.end !== undefined && f.begin > f.end)
    throw badRequest('time_start_after_end', { begin: 'time_start_after_end' });
  const { rows, total } = await repo.listContacts(k, p.orgi, await scopeOf(k, p), f, pg);
  return pageOf(await present(k, p.orgi, rows), total, pg);
}

export async function view(db: Db, p: Principal, q: { id: string } & Paging): Promise<ContactViewDto> {
  const k = db.kysely;
  const row = await visibleContact(k, p, await scopeOf(k, p), q.id);
  const { rows, total } = await repo.timeline(k, p.orgi, row.id, q);
  return {
    contact: await presentOne(k, p.orgi, row),
    timeline: { list: rows.map(presentConversation), total, page: q.p, size: q.ps },
  };
}

/** `a`, or `b` where `a` is empty. */
const either = (a: string, b: string) => a || b;

/**
 * Merges `source` into `target`: target's fields win, its empty ones take source's; emails, tags and
 * every visitor / platform identity (so both conversation histories) move to target; memos are joined.
 * Source is deleted.
 */
export async function merge(
  db: Db,
  p: Principal,
  b: { target: string; source: string },
): Promise<ContactDto> {
  return db.kysely.transaction().execute(async (k) => {
    const s = await scopeOf(k, p);
    const target = await visibleContact(k, p, s, b.target);
    const source = await visibleContact(k, p, s, b.source);
    const now = Date.now();
    const memo = [target.memo, source.memo].filter(Boolean).join('\n').slice(0, CONTACT_LIMITS.memo);
    const row: Row = {
      ...target,
      phone: either(target.phone, source.phone),
      email: [...new Set([...emailsOf(target.email), ...emailsOf(source.email)])].join(','),
      company: either(target.company, source.company),
      gender: either(target.gender, source.gender),
      region: either(target.region, source.region),
      address: either(target.address, source.address),
      birthday: either(target.birthday, source.birthday),
      memo,
      owner: target.owner ?? source.owner,
      organ: target.owner ? target.organ : source.organ,
      updatetime: now,
    };
    row.searchkey = repo.searchKeyOf(row);
    const tagids = [...new Set((await repo.tagIdsOf(k, [target.id, source.id])).map((t) => t.tagid))];
    await repo.moveIdentities(k, source.id, target.id);
    await repo.deleteContact(k, source.id);
    await write(k, target, { row, tagids }, now);
    return presentOne(k, p.orgi, row);
  });
}

/** The contact a conversation's visitor (or platform user) is linked to, or null. */
export async function contactOfConversation(
  k: Kdb,
  s: { orgi: string; channel: string; userid: string },
): Promise<ContactDto | null> {
  const id = await repo.contactIdOf(k, s.orgi, s.channel, s.userid);
  const row = id ? await repo.findContact(k, s.orgi, id) : undefined;
  return row ? presentOne(k, s.orgi, row) : null;
}

/**
 * PUT /api/contacts from a conversation the caller follows. With `contactid` the conversation's visitor is
 * linked to that contact (which must be in the caller's scope); otherwise the visitor's contact is updated
 * — or created, named after the visitor, with the mobile / email the visitor gave when valid — and linked.
 * The linked contact is writable by whoever serves the conversation, whatever their scope.
 */
export async function fromConversation(
  db: Db,
  p: Principal,
  conv: {
    orgi: string;
    channel: string;
    userid: string;
    username: string;
    name: string;
    phone: string;
    email: string;
  },
  input: Partial<ContactFieldsInput> & { contactid?: string | null },
): Promise<ContactDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const now = Date.now();
      const { contactid, ...fields } = input;
      const linked = await repo.contactIdOf(k, conv.orgi, conv.channel, conv.userid);
      let cur: Row | null = null;
      if (contactid) cur = await visibleContact(k, p, await scopeOf(k, p), contactid);
      else if (linked) cur = (await repo.findContact(k, p.orgi, linked)) ?? null;
      const defaults = cur
        ? {}
        : {
            name: conv.name || conv.username,
            ...(await freeKeys(k, p.orgi, conv)),
          };
      // The conversation grants writing its contact; a new owner must still be within the caller's scope.
      const s: DataScope = fields.owner === undefined ? { kind: 'all' } : await scopeOf(k, p);
      const next = await prepare(k, p, s, cur, { ...defaults, ...fields }, now);
      await write(k, cur, next, now);
      if (linked !== next.row.id) await repo.link(k, conv.orgi, next.row.id, conv.channel, conv.userid, now);
      return presentOne(k, p.orgi, next.row);
    })
    .catch(unique);
}

/** The visitor's mobile and email as a new contact's defaults, when valid and not someone else's. */
async function freeKeys(k: Kdb, orgi: string, conv: { phone: string; email: string }) {
  const phone = isPhone(conv.phone) ? conv.phone : '';
  const email = !conv.email.includes(',') && isEmailList(conv.email, false) ? conv.email.toLowerCase() : '';
  const taken = await repo.takenKeys(k, orgi, { phone, emails: email ? [email] : [] }, null);
  return {
    phone: taken.some((t) => t.kind === 'phone') ? '' : phone,
    email: taken.some((t) => t.kind === 'email') ? '' : email,
  };
}
