import type { LeaveMessageDto, LeaveMsgStatus } from '@kefu/protocol';
import type { LeaveRow } from './leavemsg.repository.js';

export const presentLeave = (
  r: LeaveRow & { agentname?: string | null; accessname?: string | null },
): LeaveMessageDto => ({
  id: r.id,
  appid: r.appid,
  accessname: r.accessname ?? '',
  userid: r.userid,
  name: r.name,
  mobile: r.mobile,
  email: r.email,
  content: r.content,
  status: r.status as LeaveMsgStatus,
  agentno: r.agentno,
  agentname: r.agentname ?? '',
  note: r.note,
  ip: r.ip,
  createtime: Number(r.createtime),
  allocatetime: r.allocatetime === null ? null : Number(r.allocatetime),
  donetime: r.donetime === null ? null : Number(r.donetime),
});
