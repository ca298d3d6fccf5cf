import type { UserRow } from './user.repository.js';

/** A user as the admin screens see it. The password hash never leaves the repository layer. */
export interface UserDto {
  id: string;
  username: string;
  uname: string;
  nickname: string;
  email: string;
  mobile: string;
  usertype: string;
  organ: string | null;
  organname: string;
  organs: string[];
  roles: { id: string; name: string }[];
  maxusers: number;
  disabled: boolean;
  createtime: number;
  lastlogin: number | null;
}

export interface UserRelations {
  organs: Map<string, string[]>;
  roles: Map<string, { id: string; name: string }[]>;
  organNames: Map<string, string>;
}

export function presentUser(u: UserRow, rel: UserRelations): UserDto {
  const organs = rel.organs.get(u.id) ?? [];
  return {
    id: u.id,
    username: u.username,
    uname: u.uname,
    nickname: u.nickname,
    email: u.email ?? '',
    mobile: u.mobile ?? '',
    usertype: u.usertype,
    organ: u.organ,
    organname: (u.organ && rel.organNames.get(u.organ)) || '',
    organs: u.organ && !organs.includes(u.organ) ? [u.organ, ...organs] : organs,
    roles: rel.roles.get(u.id) ?? [],
    maxusers: u.maxusers,
    disabled: u.disabled === 1,
    createtime: u.createtime,
    lastlogin: u.lastlogin,
  };
}
