import type { LeaveMessageDto, LeaveMsgStatus, Page } from '@kefu/protocol';
import { get, post } from '../../lib/api';

export interface LeaveQuery {
  p: number;
  ps: number;
  status?: LeaveMsgStatus;
  q?: string;
}

export interface Colleague {
  id: string;
  username: string;
  uname: string;
}

export const leavemsgApi = {
  size: (signal?: AbortSignal) => get<number>('/leavemsg/size', undefined, signal),
  list: (q: LeaveQuery, signal?: AbortSignal) =>
    get<Page<LeaveMessageDto>>('/leavemsg/list', { ...q }, signal),
  mylist: (q: LeaveQuery, signal?: AbortSignal) =>
    get<Page<LeaveMessageDto>>('/leavemsg/mylist', { ...q }, signal),
  allocate: (ids: string[], agentno: string) =>
    post<LeaveMessageDto[]>('/leavemsg/allocation', { ids, agentno }),
  complete: (id: string, note: string) => post<LeaveMessageDto>('/leavemsg/complet', { id, note }),
  users: (signal?: AbortSignal) => get<Colleague[]>('/common/userList', undefined, signal),
};

/** Refetch interval of the count in the top bar. */
export const LEAVEMSG_SIZE_REFRESH_MS = 60_000;
