import type { Page } from '@kefu/protocol';
import { downloadUrl, get } from '../../lib/api';

export interface LoginLog {
  id: string;
  userid: string | null;
  username: string;
  ip: string;
  useragent?: string;
  browser?: string;
  os?: string;
  success: boolean | number;
  reason?: string | null;
  createtime: string | number;
}

export interface LoginLogFilter {
  username?: string;
  begin?: number;
  end?: number;
}

export const loginLogApi = {
  page: (q: LoginLogFilter & { p: number; ps: number }, signal?: AbortSignal) =>
    get<Page<LoginLog>>('/analyse/loginLogs', { ...q }, signal),
  exportUrl: (f: LoginLogFilter) => downloadUrl('/analyse/exLoginLogs', { ...f }),
};
