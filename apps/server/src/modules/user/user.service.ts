import type { z } from 'zod';
import {
  DEFAULT_LANGUAGE,
  DEFAULT_SOUNDS,
  SUPER_USERTYPE,
  type Page,
  type userPageQuery,
  type userSaveSchema,
  type userUpdateSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import { revokeAllForUser } from '../../platform/auth/tokens.js';
import { invalidateUser } from '../../platform/auth/cache.js';
import { uniqueViolationColumns } from '../../platform/db/unique.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { pageOf, type Paging } from '../../platform/http/paging.js';
import { ADMIN_USERNAME, forgetGeneratedAdminPassword } from '../seed/seed.service.js';
import { assertKeepsRoleAdmin, assertMayGrant, codesGained } from '../role/self-guard.js';
import { loadSessionConfig } from '../conversation/session-config.js';
import * as repo from './user.repository.js';
import { checkPasswordPolicy } from '../security/policy.js';
import { markPasswordChanged } from '../security/security.repository.js';
import { presentUser, type UserDto } from './user.presenter.js';

type Kdb = Db['kysely'];
type SaveInput = z.infer<typeof userSaveSchema>;
type UpdateInput = z.infer<typeof userUpdateSchema>;

async function hydrate(k: Kdb, orgi: string, rows: repo.UserRow[]): Promise<UserDto[]> {
  const ids = rows.map((r) => r.id);
  const [organs, roles, organNames] = await Promise.all([
    repo.organsOf(k, ids),
    repo.rolesOf(k, ids),
    repo.organNames(k, orgi),
  ]);
  return rows.map((r) => presentUser(r, { organs, roles, organNames }));
}

async function mustFind(k: Kdb, orgi: string, id: string): Promise<repo.UserRow> {
  const u = await repo.findUser(k, orgi, id);
  if (!u) throw notFound();
  return u;
}

export async function page(
  db: Db,
  p: Principal,
  q: z.infer<typeof userPageQuery>,
  pg: Paging,
): Promise<Page<UserDto>> {
  const { rows, total } = await repo.pageUsers(db.kysely, { orgi: p.orgi, organ: q.organ, q: q.q }, pg);
  return pageOf(await hydrate(db.kysely, p.orgi, rows), total, pg);
}

export async function detail(db: Db, p: Principal, id: string): Promise<UserDto> {
  return (await hydrate(db.kysely, p.orgi, [await mustFind(db.kysely, p.orgi, id)]))[0];
}

export const listRole = (db: Db, p: Principal) => repo.listRoleNames(db.kysely, p.orgi);

/** Only the all-powerful account may create, edit or delete another all-powerful account. */
function checkPrivilege(
  p: Principal,
  target: { usertype?: string } | undefined,
  wanted: string | undefined,
): void {
  if (p.usertype === SUPER_USERTYPE) return;
  if (target?.usertype === SUPER_USERTYPE || wanted === SUPER_USERTYPE) throw forbidden();
}

async function checkUnique(
  k: Kdb,
  orgi: string,
  v: { username: string; mobile: string | null; email: string | null },
  exceptId?: string,
) {
  if (await repo.usernameTaken(k, v.username, exceptId))
    throw badRequest('username_repeat', { username: 'username_repeat' });
  if (await repo.mobileOrEmailTaken(k, orgi, v.mobile, v.email, exceptId))
    throw badRequest('mobile_email_exists');
}

/** A concurrent write that slipped past checkUnique hits a unique index: same keys. */
function mapUnique(err: unknown): never {
  const cols = uniqueViolationColumns(err);
  if (cols?.includes('username')) throw badRequest('username_repeat', { username: 'username_repeat' });
  if (cols?.includes('mobile') || cols?.includes('email')) throw badRequest('mobile_email_exists');
  throw err;
}

/**
 * Departments: the primary department is always one of the memberships. Dropping the primary from the
 * memberships (without naming a new one) promotes the first remaining membership.
 */
async function resolveRelations(k: Kdb, orgi: string, input: Partial<SaveInput>, existing?: repo.UserRow) {
  const current = existing ? ((await repo.organsOf(k, [existing.id])).get(existing.id) ?? []) : [];
  const organs = [...new Set(input.organs ?? current)];
  let organ = input.organ !== undefined ? input.organ : (existing?.organ ?? null);
  if (input.organ === undefined && organ && input.organs && !organs.includes(organ)) organ = null;
  if (organ && !organs.includes(organ)) organs.unshift(organ);
  if (!organ) organ = organs[0] ?? null;
  const roles = input.roles ? [...new Set(input.roles)] : undefined;
  const [foundOrgans, foundRoles] = await Promise.all([
    repo.existingIds(k, 'organ', orgi, organs),
    repo.existingIds(k, 'role', orgi, roles ?? []),
  ]);
  if (foundOrgans.size !== organs.length) throw badRequest('invalid_field', { organs: 'invalid_field' });
  if (roles && foundRoles.size !== roles.length)
    throw badRequest('invalid_field', { roles: 'invalid_field' });
  return { organ, organs, roles };
}

/** A user gets its permissions from its roles: one that is not usertype '0' needs at least one. */
function assertHasRole(usertype: string, roles: readonly string[]): void {
  if (usertype !== SUPER_USERTYPE && roles.length === 0)
    throw badRequest('role_required', { roles: 'role_required' });
}

export async function save(ctx: AppContext, p: Principal, input: SaveInput): Promise<UserDto> {
  checkPrivilege(p, undefined, input.usertype);
  await checkPasswordPolicy(ctx.db, p.orgi, input.password);
  const passwordHash = await hashPassword(input.password);
  // No seat count given: the tenant default of the assignment rules (A09_A03_A02).
  const maxusers = input.maxusers ?? (await loadSessionConfig(ctx.db, p.orgi)).maxusers;
  return ctx.db.kysely
    .transaction()
    .execute(async (k) => {
      const email = input.email ?? null;
      const mobile = input.mobile ?? null;
      await checkUnique(k, p.orgi, { username: input.username, mobile, email });
      const rel = await resolveRelations(k, p.orgi, input);
      assertHasRole(input.usertype ?? '1', rel.roles ?? []);
      assertMayGrant(p, await codesGained(k, undefined, rel.roles));
      const now = Date.now();
      const id = newId();
      await repo.insertUser(k, {
        id,
        orgi: p.orgi,
        username: input.username,
        password_hash: passwordHash,
        uname: input.uname,
        nickname: input.nickname ?? '',
        email,
        mobile,
        usertype: input.usertype ?? '1',
        superuser: 0,
        organ: rel.organ,
        maxusers,
        disabled: input.disabled ? 1 : 0,
        language: DEFAULT_LANGUAGE,
        warningtone: 1,
        messagetone: 1,
        warningpath: DEFAULT_SOUNDS.newChat,
        messagepath: DEFAULT_SOUNDS.message,
        createtime: now,
        updatetime: now,
        lastlogin: null,
      });
      await repo.setOrgans(k, p.orgi, id, rel.organs);
      await repo.setRoles(k, p.orgi, id, rel.roles ?? []);
      return (await hydrate(k, p.orgi, [await mustFind(k, p.orgi, id)]))[0];
    })
    .catch(mapUnique);
}

export async function update(ctx: AppContext, p: Principal, input: UpdateInput): Promise<UserDto> {
  if (input.password) await checkPasswordPolicy(ctx.db, p.orgi, input.password);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const self = input.id === p.id;
  const result = await ctx.db.kysely
    .transaction()
    .execute(async (k) => {
      const cur = await mustFind(k, p.orgi, input.id);
      checkPrivilege(p, cur, input.usertype);
      const usertype = input.usertype ?? cur.usertype;
      // Nobody may lock themselves out: demoting or disabling oneself could not be undone by oneself.
      if (
        self &&
        ((cur.usertype === SUPER_USERTYPE && usertype !== SUPER_USERTYPE) || input.disabled === true)
      ) {
        throw badRequest('self_admin_removal');
      }
      const email = input.email === undefined ? cur.email : input.email;
      const mobile = input.mobile === undefined ? cur.mobile : input.mobile;
      await checkUnique(k, p.orgi, { username: input.username, mobile, email }, cur.id);
      const rel = await resolveRelations(k, p.orgi, input, cur);
      assertHasRole(
        usertype,
        rel.roles ?? ((await repo.rolesOf(k, [cur.id])).get(cur.id) ?? []).map((r) => r.id),
      );
      assertMayGrant(p, await codesGained(k, cur.id, rel.roles));
      if (self) await assertKeepsRoleAdmin(k, p.id, { usertype, roles: rel.roles });
      await repo.updateUser(k, cur.id, {
        username: input.username,
        uname: input.uname,
        nickname: input.nickname === undefined ? cur.nickname : (input.nickname ?? ''),
        email,
        mobile,
        usertype,
        organ: rel.organ,
        maxusers: input.maxusers ?? cur.maxusers,
        disabled: input.disabled === undefined ? cur.disabled : input.disabled ? 1 : 0,
        updatetime: Date.now(),
        ...(passwordHash ? { password_hash: passwordHash } : {}),
      });
      await repo.setOrgans(k, p.orgi, cur.id, rel.organs);
      if (rel.roles) await repo.setRoles(k, p.orgi, cur.id, rel.roles);
      // A new password or a disabled account ends the user's sessions (the caller's own stays).
      if (passwordHash || input.disabled) await revokeAllForUser(k, cur.id, self ? p.token : undefined);
      if (passwordHash) await markPasswordChanged(k, cur.id, p.orgi, Date.now());
      return {
        dto: (await hydrate(k, p.orgi, [await mustFind(k, p.orgi, cur.id)]))[0],
        wasAdmin: cur.username === ADMIN_USERNAME,
      };
    })
    .catch(mapUnique);
  // Name, type, department, roles, disabled, password: all reach the cached principal or its tokens.
  invalidateUser(ctx.db, input.id);
  if (passwordHash && result.wasAdmin) forgetGeneratedAdminPassword(ctx.config);
  return result.dto;
}

export async function remove(db: Db, p: Principal, id: string): Promise<void> {
  if (id === p.id) throw badRequest('self_delete');
  await db.kysely.transaction().execute(async (k) => {
    const cur = await mustFind(k, p.orgi, id);
    checkPrivilege(p, cur, undefined);
    await repo.deleteUser(k, cur.id);
  });
  invalidateUser(db, id);
}
