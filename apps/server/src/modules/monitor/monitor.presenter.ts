import { userDisplayName } from '@kefu/protocol';
import type {
  MonitorAgentDto,
  MonitorAuditDto,
  MonitorChatDto,
  MonitorMessagePatch,
  MessageDto,
  WhisperDto,
} from '@kefu/protocol';
import { presentAgentUser, presentMessage } from '../conversation/presenter.js';
import { toStoredState, type AgentRow, type ChatRow } from './monitor.repository.js';
import type { AuditRow, WhisperRow } from './supervision.repository.js';

/** ms the visitor has waited for an agent reply (0 when answered, queued or with the robot). */
export function waitReply(
  c: { status: string; ai: number; lastmessage: number | null; lastgetmessage: number | null },
  now: number,
): number {
  if (c.status !== 'inservice' || c.ai || c.lastmessage === null) return 0;
  if (c.lastgetmessage !== null && c.lastgetmessage >= c.lastmessage) return 0;
  return Math.max(0, now - c.lastmessage);
}

export function presentChat(
  r: ChatRow,
  now: number,
  replyLimitMs: number,
  organName: (id: string | null) => string,
): MonitorChatDto {
  const dto = presentAgentUser(
    {
      id: r.au_id,
      userid: r.au_userid,
      username: r.au_username,
      createtime: r.au_createtime,
      servicetime: r.au_servicetime,
      lastmsg: r.au_lastmsg,
      lastmessage: r.lastmessage,
      lastgetmessage: r.lastgetmessage,
      tokenum: r.au_tokenum,
      over: r.au_over,
      visible: r.au_visible,
      agentno: r.agentno,
      langto: r.au_langto,
    },
    r,
    now,
  );
  const waitreply = waitReply(r, now);
  return {
    ...dto,
    organ: r.organ,
    organname: organName(r.organ),
    agentname: r.agentno ? r.agentusername : '',
    waitreply,
    timeout: replyLimitMs > 0 && waitreply > replyLimitMs ? 1 : 0,
    foragent: r.foragent ? 1 : 0,
  };
}

/** Longest waiting first (spec: monitor lists sort by waitingtime): reply wait, then queue wait. */
export const byWaiting = (a: MonitorChatDto, b: MonitorChatDto): number =>
  b.waitreply - a.waitreply || b.waitingtime - a.waitingtime || a.createtime - b.createtime;

export function presentAgent(r: AgentRow, organs: string[], statetime: number | undefined): MonitorAgentDto {
  return {
    userid: r.userid,
    username: r.username,
    uname: userDisplayName(r),
    organ: r.organ,
    organs: [...new Set([...(r.organ ? [r.organ] : []), ...organs])],
    status: toStoredState(r.status),
    users: Number(r.users),
    maxusers: Number(r.maxusers),
    statetime: statetime ?? Number(r.updatetime),
  };
}

export function presentAudit(r: AuditRow): MonitorAuditDto {
  return {
    id: r.id,
    userid: r.userid,
    username: r.username,
    action: r.action as MonitorAuditDto['action'],
    agentserviceid: r.agentserviceid,
    target: r.target,
    organ: r.organ,
    detail: r.detail,
    createtime: Number(r.createtime),
  };
}

/**
 * A whisper as the agents receive it: a `message` marked whisper: 1. Its seq is 0 (it takes no seq of the
 * conversation, so no client counts it as held); `afterseq` places it after the line it followed.
 */
export function presentWhisper(w: WhisperRow, usession: string): WhisperDto {
  const line = presentMessage(
    {
      id: w.id,
      orgi: w.orgi,
      agentserviceid: w.agentserviceid,
      seq: 0,
      sender: w.sender,
      client_id: w.client_id,
      username: w.username,
      touser: '',
      usession,
      type: 'message',
      msgtype: 'text',
      calltype: 'out',
      message: w.message,
      attachmentid: null,
      filename: null,
      filesize: null,
      withdrawn: 0,
      withdrawn_at: null,
      readstatus: 0,
      createtime: Number(w.createtime),
      tokens: null,
    },
    0,
    true,
  );
  return { ...line, whisper: 1, afterseq: Number(w.afterseq) };
}

/** What a delivered message changes in the monitor's chat row (mirrors the message write's counters). */
export function messagePatch(m: MessageDto): MonitorMessagePatch {
  return {
    agentserviceid: m.agentserviceid,
    lastmsg: m.msgtype === 'text' ? m.message.slice(0, 100) : `[${m.msgtype}]`,
    lastmessage: m.calltype === 'in' ? m.createtime : null,
    lastgetmessage: m.calltype === 'out' && m.type === 'message' ? m.createtime : null,
  };
}
