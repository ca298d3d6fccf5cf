import { randomBytes } from 'node:crypto';
import { encryptMessage, wechatSignature } from '../../src/modules/channels/crypto/wechat-crypto.js';
import { buildXml } from '../../src/modules/channels/wire.js';

/** How an app's pushes are built: the fake acts as the platform calling the app's webhook. */
export interface PushTarget {
  url: string;
  token: string;
  aeskey: string;
  /** AppID or CorpID, appended before encryption. */
  receiveId: string;
}

export interface Delivery {
  status: number;
  body: string;
  attempts: number;
  /** ms from sending to the answer (the last attempt). */
  ms: number;
}

/**
 * Sends a push as the platforms do: re-sent identically when no 2xx comes back within `timeoutMs`
 * (WeChat: 5 s, 3 attempts), and `duplicates` extra identical copies when asked.
 */
export async function deliver(
  url: string,
  init: { method: string; body?: string; headers?: Record<string, string> },
  opts: { attempts?: number; timeoutMs?: number; duplicates?: number } = {},
): Promise<Delivery> {
  const attempts = opts.attempts ?? 3;
  let last: Delivery = { status: 0, body: '', attempts: 0, ms: 0 };
  for (let i = 1; i <= attempts; i++) {
    const t0 = performance.now();
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(opts.timeoutMs ?? 5_000) });
      last = { status: res.status, body: await res.text(), attempts: i, ms: performance.now() - t0 };
      if (res.status >= 200 && res.status < 300) break;
    } catch {
      last = { status: 0, body: '', attempts: i, ms: performance.now() - t0 };
    }
  }
  for (let d = 0; d < (opts.duplicates ?? 0); d++) await fetch(url, init);
  return last;
}

const nonce = () => String(randomBytes(4).readUInt32BE(0));

/** A safe-mode (AES) push of `inner` (XML text): query with msg_signature, XML or JSON envelope. */
export function encryptedPush(
  t: PushTarget,
  inner: string,
  opts: { nowSec: number; format?: 'xml' | 'json'; toUser?: string; extraQuery?: Record<string, string> },
): { url: string; body: string; headers: Record<string, string> } {
  const timestamp = String(opts.nowSec);
  const n = nonce();
  const enc = encryptMessage(t.aeskey, inner, t.receiveId);
  const q = new URLSearchParams({
    msg_signature: wechatSignature(t.token, timestamp, n, enc),
    timestamp,
    nonce: n,
    signature: wechatSignature(t.token, timestamp, n),
    ...opts.extraQuery,
  });
  const json = opts.format === 'json';
  const body = json
    ? JSON.stringify({ ToUserName: opts.toUser ?? t.receiveId, Encrypt: enc })
    : buildXml({ ToUserName: opts.toUser ?? t.receiveId, Encrypt: enc, AgentID: '' });
  return {
    url: `${t.url}?${q.toString()}`,
    body,
    headers: { 'content-type': json ? 'application/json' : 'text/xml' },
  };
}

/** A plaintext push (official account / mini-program plaintext mode): signature only. */
export function plainPush(
  t: PushTarget,
  body: string,
  opts: { nowSec: number; json?: boolean },
): { url: string; body: string; headers: Record<string, string> } {
  const timestamp = String(opts.nowSec);
  const n = nonce();
  const q = new URLSearchParams({ signature: wechatSignature(t.token, timestamp, n), timestamp, nonce: n });
  return {
    url: `${t.url}?${q.toString()}`,
    body,
    headers: { 'content-type': opts.json ? 'application/json' : 'text/xml' },
  };
}

/** The URL of a GET handshake: KF sends an encrypted echostr (answer: its plaintext), OA/mini-program a plain one. */
export function handshakeUrl(
  t: PushTarget,
  echo: string,
  opts: { encrypted: boolean; nowSec: number },
): string {
  const timestamp = String(opts.nowSec);
  const n = nonce();
  const echostr = opts.encrypted ? encryptMessage(t.aeskey, echo, t.receiveId) : echo;
  const q: Record<string, string> = opts.encrypted
    ? { msg_signature: wechatSignature(t.token, timestamp, n, echostr), timestamp, nonce: n, echostr }
    : { signature: wechatSignature(t.token, timestamp, n), timestamp, nonce: n, echostr };
  return `${t.url}?${new URLSearchParams(q).toString()}`;
}
