import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/** SQL of the first-start seed. Every function is a lookup or a plain insert; the service decides. */
export const findOrganization = (k: Kysely<Database>, id: string) =>
  k.selectFrom('organization').select('id').where('id', '=', id).executeTakeFirst();

export const insertOrganization = (k: Kysely<Database>, id: string, title: string, now: number) =>
  k.insertInto('organization').values({ id, name: title, title, favlogo: '', createtime: now }).execute();

export const findOrganByName = (k: Kysely<Database>, orgi: string, name: string) =>
  k.selectFrom('organ').select('id').where('orgi', '=', orgi).where('name', '=', name).executeTakeFirst();

export const insertOrgan = (
  k: Kysely<Database>,
  v: { id: string; orgi: string; name: string; skill: number; now: number },
) =>
  k
    .insertInto('organ')
    .values({
      id: v.id,
      orgi: v.orgi,
      name: v.name,
      parentid: null,
      skill: v.skill,
      sortindex: 0,
      createtime: v.now,
      updatetime: v.now,
    })
    .execute();

export const findRoleByName = (k: Kysely<Database>, orgi: string, name: string) =>
  k.selectFrom('role').select('id').where('orgi', '=', orgi).where('name', '=', name).executeTakeFirst();

export async function insertRole(
  k: Kysely<Database>,
  v: { id: string; orgi: string; name: string; description: string; codes: readonly string[]; now: number },
): Promise<void> {
  await k
    .insertInto('role')
    .values({
      id: v.id,
      orgi: v.orgi,
      name: v.name,
      description: v.description,
      createtime: v.now,
      updatetime: v.now,
    })
    .execute();
  if (v.codes.length) {
    await k
      .insertInto('role_auth')
      .values(v.codes.map((code) => ({ roleid: v.id, code, orgi: v.orgi })))
      .execute();
  }
}

export const findUserByUsername = (k: Kysely<Database>, orgi: string, username: string) =>
  k
    .selectFrom('users')
    .select('id')
    .where('orgi', '=', orgi)
    .where('username', '=', username)
    .executeTakeFirst();

export async function insertAdmin(
  k: Kysely<Database>,
  v: {
    id: string;
    orgi: string;
    username: string;
    passwordHash: string;
    organ: string;
    role: string;
    now: number;
    email?: string | null;
    mobile?: string | null;
  },
): Promise<void> {
  await k
    .insertInto('users')
    .values({
      id: v.id,
      orgi: v.orgi,
      username: v.username,
      password_hash: v.passwordHash,
      uname: v.username,
      nickname: v.username,
      email: v.email ?? null,
      mobile: v.mobile ?? null,
      usertype: '0',
      superuser: 1,
      organ: v.organ,
      maxusers: 10,
      disabled: 0,
      language: 'zh',
      warningtone: 1,
      messagetone: 1,
      warningpath: 'new.mp3',
      messagepath: 'message.mp3',
      createtime: v.now,
      updatetime: v.now,
      lastlogin: null,
    })
    .execute();
  await k.insertInto('user_organ').values({ userid: v.id, organid: v.organ, orgi: v.orgi }).execute();
  await k.insertInto('user_role').values({ userid: v.id, roleid: v.role, orgi: v.orgi }).execute();
}

export interface TextRow {
  scope: string;
  lang: string;
  texts: Readonly<Record<string, string>>;
}

/** Visitor texts in a language, each row only if that scope has none yet (an admin's edits stay). */
export async function insertTextsIfMissing(
  k: Kysely<Database>,
  orgi: string,
  rows: readonly TextRow[],
  now: number,
): Promise<void> {
  if (rows.length === 0) return;
  await k
    .insertInto('visitor_text')
    .values(
      rows.map((r) => ({
        orgi,
        scope: r.scope,
        lang: r.lang,
        texts: JSON.stringify(r.texts),
        updatetime: now,
      })),
    )
    .onConflict((oc) => oc.columns(['orgi', 'scope', 'lang']).doNothing())
    .execute();
}
