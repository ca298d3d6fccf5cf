import type { OnlineTalkDto, OnlineTraceDto, OnlineVisitorDto, Page } from '@kefu/protocol';
import { get, post } from '../../lib/api';

export const touristApi = {
  online: (q: { p: number; ps: number }, signal?: AbortSignal) =>
    get<Page<OnlineVisitorDto>>('/online/onlineUser', q, signal),
  history: (q: { p: number; ps: number }, signal?: AbortSignal) =>
    get<Page<OnlineVisitorDto>>('/online/onlineUserHis', q, signal),
  trace: (traceid: string, signal?: AbortSignal) => get<OnlineTraceDto>('/online/trace', { traceid }, signal),
  invite: (traceid: string) => post<{ id: string }>('/online/invite', { traceid }),
  talk: (traceid: string) => post<OnlineTalkDto>('/online/talk', { traceid }),
};
