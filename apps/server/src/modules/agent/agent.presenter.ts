import type { AgentState, AuthMap } from '@kefu/protocol';
import type { OrganRow, UserRow } from './agent.repository.js';

/** `user` of GET /api/agent (also returned by POST /tokens and POST /api/agent). */
export interface AgentUserDto {
  id: string;
  orgi: string;
  username: string;
  uname: string;
  nickname: string;
  usertype: string;
  superuser: boolean;
  organ: string | null;
  organname: string;
  /** Ids of the skill groups the user belongs to. */
  skill: string[];
  language: string;
  warningtone: number;
  warningpath: string;
  messagetone: number;
  messagepath: string;
  on_state: AgentState;
  sessionid: string;
}

export interface AgentInfoDto {
  user: AgentUserDto;
  organ: { id: string; name: string; skill: boolean } | null;
  auth: AuthMap;
  superuser: boolean;
  schema: string;
  hostname: string;
  port: number;
}

export function presentAgentUser(
  u: UserRow,
  organ: OrganRow | undefined,
  skill: string[],
  onState: AgentState,
  sessionid: string,
): AgentUserDto {
  return {
    id: u.id,
    orgi: u.orgi,
    username: u.username,
    uname: u.uname,
    nickname: u.nickname,
    usertype: u.usertype,
    superuser: u.superuser === 1,
    organ: u.organ,
    organname: organ?.name ?? '',
    skill,
    language: u.language,
    warningtone: u.warningtone,
    warningpath: u.warningpath,
    messagetone: u.messagetone,
    messagepath: u.messagepath,
    on_state: onState,
    sessionid,
  };
}

export const presentOrgan = (o: OrganRow | undefined): AgentInfoDto['organ'] =>
  o ? { id: o.id, name: o.name, skill: o.skill === 1 } : null;
