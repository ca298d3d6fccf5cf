import { PERMISSION_TREE, type PermissionNode } from '@kefu/protocol';
import { get, post, postForMsg } from '../../lib/api';

export interface Role {
  id: string;
  name: string;
  description?: string | null;
  usercount?: number;
}

export const roleApi = {
  list: (signal?: AbortSignal) => get<Role[]>('/role/list', undefined, signal),
  save: (r: { name: string; description?: string }) => post<Role>('/role/save', r),
  update: (r: { id: string; name: string; description?: string }) => post<Role>('/role/update', r),
  remove: (id: string) => postForMsg('/role/delete', { id }),
  auth: (id: string, signal?: AbortSignal) => get<string[]>('/role/auth', { id }, signal),
  saveAuth: (id: string, codes: string[]) => postForMsg('/role/auth/save', { id, codes }),
};

const LEAVES = new Set<string>();
const PARENT = new Map<string, string>();
const walk = (nodes: readonly PermissionNode[], parent?: string) => {
  for (const n of nodes) {
    if (parent) PARENT.set(n.code, parent);
    if (n.children?.length) walk(n.children, n.code);
    else LEAVES.add(n.code);
  }
};
walk(PERMISSION_TREE);

/**
 * The tree conducts checks (checking a parent checks all its children), so only leaf codes are
 * given to it as checked; parents show as checked or half-checked from their children. A parent
 * held without any of its children cannot be shown this way and is re-derived on save.
 */
export const checkedLeaves = (codes: readonly string[]): string[] => codes.filter((c) => LEAVES.has(c));

/**
 * Routes need the parent's code too (spec section 4: a parent route is kept only if its code is
 * held), so the saved set is the checked codes plus all their ancestors (the half-checked nodes).
 */
export function codesToSave(checked: readonly string[]): string[] {
  const out = new Set<string>();
  for (const c of checked) {
    for (let k: string | undefined = c; k && !out.has(k); k = PARENT.get(k)) out.add(k);
  }
  return [...out].sort();
}
