import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The message crypto shared by every WeChat channel (official account, mini-program, WeCom/KF) and
 * Baidu's WeChat-shaped pushes: SHA-1 signatures over the sorted parts, and AES-256-CBC with the
 * EncodingAESKey, an IV of the key's first 16 bytes and PKCS#7 padding to 32-byte blocks.
 */

/** sha1 of the parts sorted as strings and joined: `signature` (token, timestamp, nonce) and `msg_signature` (+ Encrypt). */
export function wechatSignature(...parts: string[]): string {
  return createHash('sha1')
    .update([...parts].sort().join(''))
    .digest('hex');
}

/** Constant-time comparison of a received hex signature with the expected one (lower case only). */
export function sameSignature(received: string | undefined, expected: string): boolean {
  if (typeof received !== 'string' || received.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(received), Buffer.from(expected));
}

export class CryptoError extends Error {}

const BLOCK = 32;

/** The 32-byte key of a 43-character EncodingAESKey. */
export function aesKey(encodingAesKey: string): Buffer {
  if (!/^[A-Za-z0-9+/]{43}$/.test(encodingAesKey))
    throw new CryptoError('EncodingAESKey must be 43 base64 chars');
  const key = Buffer.from(`${encodingAesKey}=`, 'base64');
  if (key.length !== 32) throw new CryptoError('EncodingAESKey does not decode to 32 bytes');
  return key;
}

/** random(16) ‖ uint32_be(byte length) ‖ msg ‖ receiveId, padded and encrypted, as base64. */
export function encryptMessage(
  encodingAesKey: string,
  msg: string,
  receiveId: string,
  random: Buffer = randomBytes(16),
): string {
  const key = aesKey(encodingAesKey);
  const body = Buffer.from(msg, 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length, 0);
  const plain = Buffer.concat([random, len, body, Buffer.from(receiveId, 'utf8')]);
  const pad = BLOCK - (plain.length % BLOCK);
  const cipher = createCipheriv('aes-256-cbc', key, key.subarray(0, 16));
  cipher.setAutoPadding(false);
  return Buffer.concat([
    cipher.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])),
    cipher.final(),
  ]).toString('base64');
}

export interface Decrypted {
  random: Buffer;
  message: string;
  receiveId: string;
}

/**
 * Decrypts an `Encrypt` value and checks the receiveId (AppID or CorpID) when one is expected. Every
 * malformed input (length, padding, length field, receiver) throws CryptoError.
 */
export function decryptMessage(
  encodingAesKey: string,
  encrypted: string,
  expectReceiveId?: string,
): Decrypted {
  const key = aesKey(encodingAesKey);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encrypted)) throw new CryptoError('ciphertext is not base64');
  const data = Buffer.from(encrypted, 'base64');
  if (data.length === 0 || data.length % BLOCK !== 0)
    throw new CryptoError('ciphertext length is not a multiple of 32');
  const decipher = createDecipheriv('aes-256-cbc', key, key.subarray(0, 16));
  decipher.setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(data), decipher.final()]);
  const pad = plain[plain.length - 1]!;
  if (pad < 1 || pad > BLOCK) throw new CryptoError('bad padding');
  for (let i = plain.length - pad; i < plain.length; i++)
    if (plain[i] !== pad) throw new CryptoError('bad padding');
  const body = plain.subarray(0, plain.length - pad);
  if (body.length < 20) throw new CryptoError('plaintext too short');
  const len = body.readUInt32BE(16);
  if (20 + len > body.length) throw new CryptoError('bad length field');
  const message = body.subarray(20, 20 + len).toString('utf8');
  const receiveId = body.subarray(20 + len).toString('utf8');
  if (expectReceiveId !== undefined && receiveId !== expectReceiveId)
    throw new CryptoError('receiveId mismatch');
  return { random: body.subarray(0, 16), message, receiveId };
}

/** Douyin's `X-Douyin-Signature`: sha1(client_secret + raw body), hex. */
export function douyinSignature(clientSecret: string, rawBody: Buffer | string): string {
  return createHash('sha1').update(clientSecret).update(rawBody).digest('hex');
}
