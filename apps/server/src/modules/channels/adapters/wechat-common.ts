import type { MsgType } from '@kefu/protocol';
import { CryptoError, decryptMessage, sameSignature, wechatSignature } from '../crypto/wechat-crypto.js';
import { WireError, jsonText, parseJsonObject, parseXml, xmlText } from '../wire.js';
import { PlatformError, WECHAT_ERRORS, checkErrcode, platformFetch, platformJson } from '../platform-http.js';
import type { AdapterContext, AppRow, OutboundItem } from './adapter.js';

export type Opened = { ok: true; text: string } | { ok: false; status: number; reason: string };

/**
 * The body of a WeChat-style push, checked and decrypted. Safe mode (or `encrypt_type=aes`): the
 * `msg_signature` over the Encrypt value, then AES with the app's key and receiveId. Plaintext mode: the
 * plain `signature`. Nothing is parsed beyond the envelope before its signature holds.
 */
export function openPush(
  app: AppRow,
  query: Record<string, string>,
  raw: Buffer,
  opts: { alwaysEncrypted?: boolean; receiveId: string },
): Opened {
  const { timestamp = '', nonce = '' } = query;
  const encrypted = opts.alwaysEncrypted || query.encrypt_type === 'aes';
  const text = raw.toString('utf8');
  if (!encrypted) {
    if (app.mode === 'safe') return { ok: false, status: 403, reason: 'plaintext push to a safe-mode app' };
    if (!sameSignature(query.signature, wechatSignature(app.token, timestamp, nonce)))
      return { ok: false, status: 403, reason: 'bad signature' };
    return { ok: true, text };
  }
  let enc: string;
  try {
    enc = text.trimStart().startsWith('{')
      ? jsonText(parseJsonObject(text), 'Encrypt')
      : xmlText(parseXml(text), 'Encrypt');
  } catch (err) {
    if (err instanceof WireError)
      return { ok: false, status: 400, reason: `unreadable envelope: ${err.message}` };
    throw err;
  }
  if (!enc) return { ok: false, status: 400, reason: 'no Encrypt' };
  if (!sameSignature(query.msg_signature, wechatSignature(app.token, timestamp, nonce, enc)))
    return { ok: false, status: 403, reason: 'bad msg_signature' };
  try {
    return { ok: true, text: decryptMessage(app.aeskey, enc, opts.receiveId).message };
  } catch (err) {
    if (err instanceof CryptoError) return { ok: false, status: 400, reason: `decrypt: ${err.message}` };
    throw err;
  }
}

/** A decrypted message body (XML or JSON) as flat string fields; throws WireError. */
export function readFields(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (text.trimStart().startsWith('{')) {
    const o = parseJsonObject(text);
    for (const k of Object.keys(o)) out[k] = jsonText(o, k);
  } else {
    const x = parseXml(text);
    for (const k of Object.keys(x)) out[k] = xmlText(x, k);
  }
  return out;
}

/** A platform call that returns WeChat-style JSON (errcode checked). */
export async function wechatCall(
  url: string,
  init: Parameters<typeof platformFetch>[1] = {},
): Promise<Record<string, unknown>> {
  const o = await platformJson(await platformFetch(url, init));
  checkErrcode(o, WECHAT_ERRORS);
  return o;
}

/** A token as `{access_token, expires_in}`. */
export function tokenOf(o: Record<string, unknown>): { token: string; expiresIn: number } {
  const token = jsonText(o, 'access_token');
  if (!token) throw new PlatformError('transient', 'no token', JSON.stringify(o).slice(0, 200));
  return { token, expiresIn: Number(o.expires_in ?? 7200) };
}

/** Uploads a stored file as temporary media (multipart field `media` with a filename): its media_id. */
export async function uploadMedia(
  base: string,
  token: string,
  type: string,
  file: NonNullable<OutboundItem['file']>,
  data: Buffer,
): Promise<string> {
  const form = new FormData();
  form.append('media', new Blob([new Uint8Array(data)], { type: file.mime }), file.filename);
  const o = await wechatCall(
    `${base}/cgi-bin/media/upload?access_token=${encodeURIComponent(token)}&type=${type}`,
    {
      body: form,
    },
  );
  const id = jsonText(o, 'media_id');
  if (!id) throw new PlatformError('transient', 'no media_id', JSON.stringify(o).slice(0, 200));
  return id;
}

/** Downloads temporary media; a JSON answer is an error. */
export async function downloadMedia(base: string, token: string, mediaId: string): Promise<Buffer> {
  const res = await platformFetch(
    `${base}/cgi-bin/media/get?access_token=${encodeURIComponent(token)}&media_id=${encodeURIComponent(mediaId)}`,
  );
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json') || res.status >= 400) {
    const o = await platformJson(res);
    checkErrcode(o, WECHAT_ERRORS);
    throw new PlatformError('permanent', 'media', JSON.stringify(o).slice(0, 200));
  }
  return Buffer.from(await res.arrayBuffer());
}

/** Our message kinds → the platform's upload `type`. */
export const MEDIA_TYPE: Partial<Record<MsgType, string>> = {
  image: 'image',
  voice: 'voice',
  video: 'video',
  file: 'file',
};

/** Splits a text into parts of at most `max` UTF-8 bytes, never inside a character. */
export function splitText(text: string, max: number): string[] {
  const parts: string[] = [];
  let cur = '';
  let bytes = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > max) {
      parts.push(cur);
      cur = '';
      bytes = 0;
    }
    cur += ch;
    bytes += n;
  }
  if (cur || parts.length === 0) parts.push(cur);
  return parts;
}

export const secs = (v: string): number => (Number(v) > 0 ? Number(v) * 1000 : 0);

export type { AdapterContext };
