import type { AgentUserDto, CallType, MessageDto, MessageType, MsgType, ServiceStatus } from '@kefu/protocol';
import type { Selectable } from 'kysely';
import type {
  AgentServiceTable,
  AgentUserTable,
  ChatMessageTable,
} from '../../platform/db/schema-conversations.js';

export type AgentServiceRow = Selectable<AgentServiceTable>;
export type AgentUserRow = Selectable<AgentUserTable>;
export type ChatMessageRow = Selectable<ChatMessageTable>;

/** What presentAgentUser reads of a conversation. */
export type PresentedService = Pick<
  AgentServiceRow,
  | 'id'
  | 'username'
  | 'status'
  | 'servicetime'
  | 'waittime'
  | 'createtime'
  | 'channel'
  | 'browser'
  | 'source'
  | 'country'
  | 'province'
  | 'city'
  | 'name'
  | 'phone'
  | 'lastseq'
> &
  Partial<Pick<AgentServiceRow, 'ai'>>;
/** What presentAgentUser reads of a chat entry. */
export type PresentedEntry = Pick<
  AgentUserRow,
  | 'id'
  | 'userid'
  | 'username'
  | 'createtime'
  | 'servicetime'
  | 'lastmsg'
  | 'lastmessage'
  | 'lastgetmessage'
  | 'tokenum'
  | 'over'
  | 'visible'
  | 'agentno'
  | 'langto'
>;

export function presentAgentUser(
  au: PresentedEntry,
  s: PresentedService,
  now: number,
  opts: { collabora?: boolean } = {},
): AgentUserDto {
  return {
    id: au.id,
    userid: au.userid,
    usession: au.userid,
    username: au.username || s.username,
    agentserviceid: s.id,
    status: s.status as ServiceStatus,
    createtime: au.createtime,
    servicetime: au.servicetime,
    waitingtime: s.servicetime ? s.waittime : now - s.createtime,
    lastmsg: au.lastmsg,
    lastmessage: au.lastmessage,
    lastgetmessage: au.lastgetmessage,
    tokenum: au.tokenum,
    over: au.over ? 1 : 0,
    visible: au.visible ? 1 : 0,
    collabora: opts.collabora ? 1 : 0,
    ai: s.ai ? 1 : 0,
    agentno: au.agentno,
    langto: au.langto,
    curagentuser: { id: au.id },
    agentservice: {
      id: s.id,
      channel: s.channel,
      chattype: s.channel,
      browser: s.browser,
      source: s.source,
      country: s.country,
      province: s.province,
      city: s.city,
      username: s.name || s.username,
      mobile: s.phone,
    },
    lastseq: s.lastseq,
  };
}

export function presentMessage(m: ChatMessageRow, tokenum = 0, collabora = false): MessageDto {
  const withdrawn = m.withdrawn === 1;
  const text = withdrawn ? '' : m.message;
  return {
    id: m.id,
    agentserviceid: m.agentserviceid,
    usession: m.usession,
    seq: m.seq,
    clientId: m.client_id,
    type: m.type as MessageType,
    msgtype: m.msgtype as MsgType,
    calltype: m.calltype as CallType,
    userid: m.sender,
    username: m.username,
    touser: m.touser,
    message: text,
    puremsg: text,
    translatemsg: '',
    attachmentid: withdrawn ? null : m.attachmentid,
    filename: withdrawn ? null : m.filename,
    filesize: withdrawn ? null : m.filesize,
    datastatus: withdrawn ? 1 : 0,
    withdrawn,
    readstatus: m.readstatus ? 1 : 0,
    tokenum,
    collabora: collabora ? 1 : 0,
    createtime: m.createtime,
  };
}
