import type { BlackEntryDto, Page } from '@kefu/protocol';
import { get, post, postForMsg } from '../../lib/api';

export interface BlackDraft {
  controltime: number;
  description: string;
}

export const blackApi = {
  list: (q: { p: number; ps: number; kind?: 'user' | 'ip' }, signal?: AbortSignal) =>
    get<Page<BlackEntryDto>>('/black/list', q, signal),
  saveUser: (userid: string, d: BlackDraft) => post<BlackEntryDto>('/black/save', { userid, ...d }),
  saveIp: (ip: string, d: BlackDraft) => post<BlackEntryDto>('/black/addIp', { ip, ...d }),
  remove: (id: string) => postForMsg('/black/delete', { id }),
  clean: () => post<{ removed: number }>('/black/clean'),
};
