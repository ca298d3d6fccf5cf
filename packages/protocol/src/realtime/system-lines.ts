import type { EndBy } from './dto.js';

/**
 * GET /api/talk/systemLines: the notices the visitor saw that are not stored as messages (the welcome,
 * the agent taking the chat, each transfer, the end), for the agent's transcript. `text` is what the
 * visitor was shown, in its language ('' when the visitor was shown nothing, e.g. a transfer without a
 * transfer text: the console then says what happened with `agent`).
 */
export const SYSTEM_LINE_KINDS = ['welcome', 'assigned', 'transfer', 'end'] as const;
export type SystemLineKind = (typeof SYSTEM_LINE_KINDS)[number];

export interface SystemLineDto {
  kind: SystemLineKind;
  text: string;
  /** The agent's name (assigned: who took it; transfer: who it went to; end: who served last). */
  agent: string;
  /** Who or what ended it (end only). */
  endby?: EndBy;
  createtime: number;
}
