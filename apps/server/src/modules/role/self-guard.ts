import type { Kysely } from 'kysely';
import { SUPER_USERTYPE, hasPermission, type AuthMap } from '@kefu/protocol';
import type { Database } from '../../platform/db/schema.js';
import { badRequest, forbidden } from '../../platform/http/errors.js';
import * as repo from './role.repository.js';

/** The right that lets someone manage roles; nobody may take it from themselves (they could not undo it). */
export const ROLE_ADMIN_CODE = 'A09_A02_A02';

export interface CallerChange {
  /** The caller's new usertype (user update of oneself). */
  usertype?: string;
  /** The caller's new role list (user update of oneself). */
  roles?: readonly string[];
  /** A role's codes being replaced (role auth save). */
  replace?: { roleid: string; codes: readonly string[] };
  /** A role being deleted. */
  drop?: string;
}

const mapOf = (codes: readonly string[]): AuthMap => Object.fromEntries(codes.map((c) => [c, true as const]));

/**
 * Throws self_admin_removal when the caller can manage roles now and would not after the change.
 * Call it inside the transaction, before writing.
 */
export async function assertKeepsRoleAdmin(
  k: Kysely<Database>,
  callerId: string,
  change: CallerChange,
): Promise<void> {
  const usertype = await repo.usertypeOf(k, callerId);
  if (usertype === undefined) return;
  const current = await repo.rolesOfUser(k, callerId);
  if (!hasPermission(usertype, mapOf(await repo.codesOfRoles(k, current)), ROLE_ADMIN_CODE)) return;

  let roles = change.roles ?? current;
  if (change.drop) roles = roles.filter((r) => r !== change.drop);
  const replaced = change.replace && roles.includes(change.replace.roleid) ? change.replace : undefined;
  const codes = await repo.codesOfRoles(k, replaced ? roles.filter((r) => r !== replaced.roleid) : roles);
  if (replaced) codes.push(...replaced.codes);
  if (!hasPermission(change.usertype ?? usertype, mapOf(codes), ROLE_ADMIN_CODE)) {
    throw badRequest('self_admin_removal');
  }
}

/**
 * Nobody grants what they do not hold: a caller who is not usertype '0' may only add codes (to a role)
 * or roles (to a user) made of codes they have themselves. Otherwise managing roles or users would be a
 * path to every right.
 */
export function assertMayGrant(caller: { usertype: string; auth: AuthMap }, codes: readonly string[]): void {
  if (caller.usertype === SUPER_USERTYPE) return;
  if (codes.some((c) => caller.auth[c] !== true)) throw forbidden();
}

/** The codes of the roles a user is about to gain. */
export async function codesGained(
  k: Kysely<Database>,
  userid: string | undefined,
  roles: readonly string[] | undefined,
): Promise<string[]> {
  if (!roles) return [];
  const held = new Set(userid ? await repo.rolesOfUser(k, userid) : []);
  return repo.codesOfRoles(
    k,
    roles.filter((r) => !held.has(r)),
  );
}
