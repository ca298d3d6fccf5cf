import type { Page } from '@kefu/protocol';
import { get } from '../../lib/api';
import { downloadFile } from '../../lib/download';

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
  /** Fetched with the authorization header and saved (a token never goes in a URL). */
  export: (f: LoginLogFilter) => downloadFile('/analyse/exLoginLogs', { ...f }, 'loginlog.xlsx'),
};
