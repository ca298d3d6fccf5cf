import { randomUUID } from 'node:crypto';

/** 32-char ids, the spec's uuid shape. */
export const newId = (): string => randomUUID().replace(/-/g, '');

/**
 * A 32-char UUIDv7: the creation time in milliseconds first, then 74 random bits. For rows written at a
 * high rate (messages): new keys land at the end of the primary-key index instead of on a random page,
 * so a batch dirties a few index pages rather than one per row.
 */
export function newTimeId(now = Date.now()): string {
  const r = randomUUID().replace(/-/g, '');
  // r[12] is the v4 version digit and r[16] a valid variant digit; the rest is random.
  return `${now.toString(16).padStart(12, '0')}7${r.slice(0, 3)}${r[16]}${r.slice(17, 32)}`;
}
