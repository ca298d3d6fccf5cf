import type { Page, SkillPolicyDto } from '@kefu/protocol';
import { get, post, postForMsg } from '../../lib/api';

export interface Organ {
  id: string;
  name: string;
  parentid: string | null;
  skill: boolean;
  sortindex?: number;
  usercount?: number;
}

export interface User {
  id: string;
  username: string;
  uname: string;
  nickname?: string;
  email?: string;
  mobile?: string;
  usertype: string;
  organ?: string | null;
  organname?: string | null;
  organs: string[];
  roles: { id: string; name: string }[];
  maxusers?: number;
  disabled?: boolean;
  createtime?: string | number;
  lastlogin?: string | number | null;
}

export interface UserInput {
  username: string;
  password?: string;
  uname: string;
  email?: string;
  mobile?: string;
  usertype?: '0' | '1';
  organ?: string;
  organs?: string[];
  roles?: string[];
  maxusers?: number;
}

export const organApi = {
  list: (signal?: AbortSignal) => get<Organ[]>('/organ/list', undefined, signal),
  save: (o: { name: string; parentid?: string | null; skill?: boolean }) => post<Organ>('/organ/save', o),
  update: (o: { id: string; name: string; parentid?: string | null; skill?: boolean }) =>
    post<Organ>('/organ/update', o),
  remove: (id: string) => postForMsg('/organ/delete', { id }),
};

export const userApi = {
  page: (q: { p: number; ps: number; organ?: string; q?: string }, signal?: AbortSignal) =>
    get<Page<User>>('/user/page', q, signal),
  save: (u: UserInput) => post<User>('/user/save', u),
  update: (u: UserInput & { id: string }) => post<User>('/user/update', u),
  remove: (id: string) => postForMsg('/user/delete', { id }),
  roles: (signal?: AbortSignal) => get<{ id: string; name: string }[]>('/user/listRole', undefined, signal),
};

export const skillApi = {
  policy: (organid: string, signal?: AbortSignal) =>
    get<SkillPolicyDto>('/imAgent/skill', { organid }, signal),
  save: (p: SkillPolicyDto) => post<SkillPolicyDto>('/imAgent/skill/save', p),
};

export const skillList = (signal?: AbortSignal) =>
  get<{ id: string; name: string; parentid: string | null }[]>('/common/skillList', undefined, signal);

export interface TreeNode {
  key: string;
  value: string;
  title: string;
  organ: Organ;
  children?: TreeNode[];
}

/** The server returns a flat list; nodes whose parent is missing become roots. */
export function buildOrganTree(list: readonly Organ[], exclude?: string): TreeNode[] {
  const byParent = new Map<string, Organ[]>();
  const ids = new Set(list.map((o) => o.id));
  for (const o of list) {
    const parent = o.parentid && ids.has(o.parentid) ? o.parentid : '';
    byParent.set(parent, [...(byParent.get(parent) ?? []), o]);
  }
  const walk = (parent: string): TreeNode[] =>
    (byParent.get(parent) ?? [])
      .filter((o) => o.id !== exclude)
      .sort((a, b) => (a.sortindex ?? 0) - (b.sortindex ?? 0))
      .map((o) => {
        const children = walk(o.id);
        return {
          key: o.id,
          value: o.id,
          title: o.name,
          organ: o,
          children: children.length ? children : undefined,
        };
      });
  return walk('');
}
