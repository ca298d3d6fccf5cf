import { UPLOAD_LIMITS } from '@kefu/protocol';
import { t } from '../lib/i18n.js';

/** Result of a widget HTTP call: the server's envelope reduced to ok/data or a displayable message. */
export type Result<T> = { ok: true; data: T } | { ok: false; message: string };

async function call<T>(url: string, init: RequestInit): Promise<Result<T>> {
  try {
    const res = await fetch(url, { credentials: 'omit', ...init });
    const body = (await res.json().catch(() => null)) as { success?: boolean; data?: T; msg?: string } | null;
    if (res.ok && body?.success) return { ok: true, data: body.data as T };
    if (res.status === 404 && !body?.msg)
      return { ok: false, message: t('errServer', { reason: 'HTTP 404' }) };
    return { ok: false, message: body?.msg || t('errServer', { reason: `HTTP ${res.status}` }) };
  } catch {
    return { ok: false, message: t('errNetwork') };
  }
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export interface Credential {
  appid: string;
  userid: string;
  token: string;
}

export interface UploadedFile {
  id: string;
  kind: string;
  mime: string;
  size: number;
  filename: string;
  url: string;
}

export const formatSize = (n: number): string =>
  n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

/** Client-side limits mirror the server's (it enforces them too and answers with a message). */
export function checkUpload(file: File, kind: 'image' | 'file'): string | null {
  if (kind === 'image' && !file.type.startsWith('image/')) return t('notImage');
  const max = UPLOAD_LIMITS[kind];
  return file.size > max ? t('tooLarge', { max: formatSize(max) }) : null;
}

/** `POST /im/upload?appid=&kind=&vt=<userid>.<token>` (multipart field `file`). */
export function upload(
  base: string,
  c: Credential,
  file: File,
  kind: 'image' | 'file',
): Promise<Result<UploadedFile>> {
  const form = new FormData();
  form.append('file', file, file.name);
  const q = new URLSearchParams({ appid: c.appid, kind, vt: `${c.userid}.${c.token}` });
  return call<UploadedFile>(`${base}/im/upload?${q}`, { method: 'POST', body: form });
}

/** Where an attachment is served to its visitor. */
export function mediaUrl(base: string, c: Credential, page: 'image' | 'file', id: string): string {
  const q = new URLSearchParams({ id, vt: `${c.userid}.${c.token}` });
  return `${base}/res/${page}.html?${q}`;
}

export interface LeaveMessage {
  name: string;
  mobile: string;
  email: string;
  content: string;
}

/** `POST /im/leavemsg` with `{appid, userid, token, name, mobile, email, content}`. */
export const leaveMessage = (base: string, c: Credential, m: LeaveMessage): Promise<Result<unknown>> =>
  call(`${base}/im/leavemsg`, json({ ...c, ...m }));

export interface Rating {
  agentserviceid: string;
  /** 1..5 (the configured levels). */
  level: number;
  /** Opinion item ids. */
  opinions: string[];
  comment: string;
}

/** `POST /im/satis` with `{appid, userid, token, agentserviceid, level, opinions, comment}`. */
export const rate = (base: string, c: Credential, r: Rating): Promise<Result<unknown>> =>
  call(`${base}/im/satis`, json({ ...c, ...r, comment: r.comment.slice(0, 255) }));
