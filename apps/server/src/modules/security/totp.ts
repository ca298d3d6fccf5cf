import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 6238 time-based one-time passwords (SHA-1, 30 s, 6 digits: what authenticator apps expect). */
export const TOTP_STEP_MS = 30_000;
/** The issuer authenticator apps show next to the account name. */
export const ISSUER = 'kefu';
const DIGITS = 6;
/** Codes of the previous and next step are accepted too (clock drift, a code typed as it changes). */
const WINDOW = 1;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(s: string): Buffer {
  const clean = s.replace(/[\s=-]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = ALPHABET.indexOf(ch);
    if (i < 0) throw new Error('invalid base32');
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new 160-bit secret, base32 (as the otpauth URI carries it). */
export const newSecret = (): string => base32Encode(randomBytes(20));

/** The code of one time step (RFC 4226 dynamic truncation). */
export function codeAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const h = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const o = h[h.length - 1]! & 0xf;
  const n = ((h[o]! & 0x7f) << 24) | (h[o + 1]! << 16) | (h[o + 2]! << 8) | h[o + 3]!;
  return String(n % 10 ** DIGITS).padStart(DIGITS, '0');
}

export const stepOf = (now: number): number => Math.floor(now / TOTP_STEP_MS);

/**
 * The step a code belongs to, or null. A step at or before `laststep` (the last code accepted) is refused:
 * a code works once.
 */
export function verifyCode(secret: string, code: string, now: number, laststep = 0): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = stepOf(now);
  for (let d = -WINDOW; d <= WINDOW; d++) {
    const step = current + d;
    if (step <= laststep) continue;
    const expected = Buffer.from(codeAt(secret, step));
    if (timingSafeEqual(expected, Buffer.from(code))) return step;
  }
  return null;
}

export const otpauthUri = (secret: string, account: string, issuer: string): string =>
  `otpauth://totp/${encodeURIComponent(`${issuer}:${account}`)}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${DIGITS}&period=${TOTP_STEP_MS / 1000}`;

/** Ten one-time recovery codes (xxxx-xxxx), shown once; only their hashes are stored. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    const hex = randomBytes(4).toString('hex');
    return `${hex.slice(0, 4)}-${hex.slice(4)}`;
  });
}

export const hashRecovery = (code: string): string =>
  createHash('sha256').update(code.trim().toLowerCase()).digest('hex');
