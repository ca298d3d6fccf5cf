import { randomFillSync, randomUUID } from 'node:crypto';

/** 32-char ids, the spec's uuid shape. */
export const newId = (): string => randomUUID().replace(/-/g, '');

// Random bytes drawn 4 KB at a time: one message id costs a hex slice instead of a UUID and three string ops.
const POOL = Buffer.allocUnsafe(4096);
let poolAt = POOL.length;
let lastMs = -1;
let lastMsHex = '';
const VARIANT = '89ab';

/**
 * A 32-char UUIDv7: the creation time in milliseconds first, then 74 random bits. For rows written at a
 * high rate (messages): new keys land at the end of the primary-key index instead of on a random page,
 * so a batch dirties a few index pages rather than one per row.
 */
export function newTimeId(now = Date.now()): string {
  if (poolAt + 10 > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const rand = POOL.toString('hex', poolAt, poolAt + 9);
  const variant = VARIANT[POOL[poolAt + 9]! & 3]!;
  poolAt += 10;
  if (now !== lastMs) {
    lastMs = now;
    lastMsHex = now.toString(16).padStart(12, '0');
  }
  // Version digit 7 and a variant digit 8–b: the rest is random (3 + 15 hex digits = 72 bits, + 2 in the variant).
  return `${lastMsHex}7${rand.slice(0, 3)}${variant}${rand.slice(3, 18)}`;
}
