import type { LoginLogRow } from './loginlog.repository.js';

export interface LoginLogDto {
  id: number;
  userid: string | null;
  username: string;
  ip: string;
  useragent: string;
  browser: string;
  os: string;
  success: boolean;
  /** '' on success, else the error key of the refusal. */
  reason: string;
  createtime: number;
}

export const presentLoginLog = (r: LoginLogRow): LoginLogDto => ({
  id: Number(r.id),
  userid: r.userid,
  username: r.username,
  ip: r.ip,
  useragent: r.useragent,
  browser: r.browser,
  os: r.os,
  success: r.success === 1,
  reason: r.reason,
  createtime: r.createtime,
});
