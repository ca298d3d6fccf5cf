import { randomUUID } from 'node:crypto';

/** 32-char ids, the spec's uuid shape. */
export const newId = (): string => randomUUID().replace(/-/g, '');
