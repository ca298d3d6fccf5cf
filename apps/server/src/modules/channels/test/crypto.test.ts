import { describe, expect, it } from 'vitest';
import {
  CryptoError,
  aesKey,
  decryptMessage,
  douyinSignature,
  encryptMessage,
  sameSignature,
  wechatSignature,
} from '../crypto/wechat-crypto.js';
import {
  DOUYIN_SIGNATURE,
  HANDSHAKE,
  SAFE_PUSH,
  SAFE_REPLY,
  SIGNATURE_VECTORS,
  WRONG_NONCE,
} from './vectors.js';

describe('WeChat signatures', () => {
  it.each(SIGNATURE_VECTORS)('$source', ({ parts, expected }) => {
    expect(wechatSignature(...parts)).toBe(expected);
  });

  it('the safe-mode push: signature and msg_signature of the official document', () => {
    const p = SAFE_PUSH;
    expect(wechatSignature(p.token, p.timestamp, p.nonce)).toBe(p.signature);
    expect(wechatSignature(p.token, p.timestamp, p.nonce, p.encrypt)).toBe(p.msgSignature);
  });

  it('the handshake signature verifies in constant-time comparison', () => {
    const h = HANDSHAKE;
    expect(sameSignature(h.signature, wechatSignature(h.token, h.timestamp, h.nonce))).toBe(true);
  });

  it('a wrong nonce does not verify', () => {
    const w = WRONG_NONCE;
    expect(sameSignature(w.signature, wechatSignature(w.token, w.timestamp, w.nonce))).toBe(false);
  });

  it('upper-case hex, a missing or truncated signature do not verify', () => {
    const v = SIGNATURE_VECTORS[0];
    const expected = wechatSignature(...v.parts);
    expect(sameSignature(v.expected.toUpperCase(), expected)).toBe(false);
    expect(sameSignature(undefined, expected)).toBe(false);
    expect(sameSignature(v.expected.slice(0, 39), expected)).toBe(false);
  });
});

describe('WeChat AES', () => {
  it('decrypts the official safe-mode push (random, msg_len, message, appid)', () => {
    const d = decryptMessage(SAFE_PUSH.aeskey, SAFE_PUSH.encrypt, SAFE_PUSH.appid);
    expect(d.random.toString('utf8')).toBe(SAFE_PUSH.random);
    expect(Buffer.byteLength(d.message)).toBe(SAFE_PUSH.msgLen);
    expect(d.message).toBe(SAFE_PUSH.message);
    expect(JSON.parse(d.message)).toMatchObject({ Event: 'debug_demo', debug_str: 'hello world' });
  });

  it('encrypts the official reply byte for byte, and its MsgSignature', () => {
    const r = SAFE_REPLY;
    const enc = encryptMessage(r.aeskey, r.message, r.appid, Buffer.from(r.random, 'utf8'));
    expect(enc).toBe(r.encrypt);
    expect(wechatSignature(r.token, r.timestamp, r.nonce, enc)).toBe(r.msgSignature);
  });

  it('round-trips UTF-8 (msg_len counts bytes) and block-aligned input (a full block of 0x20)', () => {
    const key = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    const msg = '我是中文abcd123';
    expect(Buffer.byteLength(msg)).toBe(19);
    expect(decryptMessage(key, encryptMessage(key, msg, 'wx1'), 'wx1').message).toBe(msg);
    // 16 + 4 + 8 + 4 = 32 bytes: padding is a whole block.
    const aligned = encryptMessage(key, '12345678', 'corp');
    expect(Buffer.from(aligned, 'base64').length).toBe(64);
    expect(decryptMessage(key, aligned, 'corp').message).toBe('12345678');
  });

  it('refuses a wrong receiveId', () => {
    expect(() => decryptMessage(SAFE_PUSH.aeskey, SAFE_PUSH.encrypt, 'wx_other')).toThrow(CryptoError);
  });

  it('refuses a key that is not 43 characters', () => {
    expect(() => aesKey('A'.repeat(42))).toThrow(CryptoError);
    expect(() => aesKey('A'.repeat(44))).toThrow(CryptoError);
    expect(() => decryptMessage('A'.repeat(42), SAFE_PUSH.encrypt)).toThrow(CryptoError);
  });

  it('refuses ciphertext whose length is not a multiple of 32, or that is not base64', () => {
    const cut = Buffer.from(SAFE_PUSH.encrypt, 'base64').subarray(0, 200).toString('base64');
    expect(() => decryptMessage(SAFE_PUSH.aeskey, cut)).toThrow(CryptoError);
    expect(() => decryptMessage(SAFE_PUSH.aeskey, 'not base64!')).toThrow(CryptoError);
    expect(() => decryptMessage(SAFE_PUSH.aeskey, '')).toThrow(CryptoError);
  });

  it('refuses ciphertext under another key (padding or length no longer hold)', () => {
    expect(() => decryptMessage('B'.repeat(43), SAFE_PUSH.encrypt, SAFE_PUSH.appid)).toThrow(CryptoError);
  });
});

describe('Douyin signature', () => {
  it('sha1(client_secret + body)', () => {
    const d = DOUYIN_SIGNATURE;
    expect(douyinSignature(d.secret, d.body)).toBe(d.expected);
    expect(douyinSignature(d.secret, Buffer.from(d.body))).toBe(d.expected);
    expect(sameSignature(d.expected, douyinSignature('other', d.body))).toBe(false);
  });
});
