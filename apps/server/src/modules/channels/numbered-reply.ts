import type { RobotReplyMeta } from '@kefu/protocol';
import * as srepo from '../conversation/service.repository.js';
import type { UserRow } from './adapters/adapter.js';
import * as repo from './channels.repository.js';
import type { ChannelRuntime } from './runtime.js';

const NUMBER_REPLY = /^\s*([1-9１-９])\s*$/;
const FULL_WIDTH_OFFSET = '１'.charCodeAt(0) - '1'.charCodeAt(0);

/** The number a user's whole text is (1-9, ASCII or full-width as Chinese keyboards type it), else null. */
export function numberReply(text: string): number | null {
  const m = NUMBER_REPLY.exec(text);
  if (!m) return null;
  const c = m[1]!.charCodeAt(0);
  return Number(String.fromCharCode(c >= 0xff10 ? c - FULL_WIDTH_OFFSET : c));
}

/**
 * A number answering the robot's numbered suggestions (sent as text lines where there is no widget):
 * while the robot serves the user's open chat and its latest line is a suggestion, "2" asks the second
 * suggested question, as a click in the widget does. Returns that question, or null (the text is then
 * read as it is: a satisfaction rating when an invitation is pending, else an ordinary message).
 */
export async function suggestionPicked(
  rt: ChannelRuntime,
  user: UserRow,
  text: string,
): Promise<string | null> {
  const n = numberReply(text);
  if (n === null) return null;
  const k = rt.e.db.kysely;
  const s = await srepo.openServiceOf(k, user.orgi, user.id);
  if (!s || s.status !== 'inservice' || Number(s.ai) !== 1) return null;
  const meta = await repo.lastRobotMeta(k, s.id);
  if (!meta) return null;
  const last = JSON.parse(meta) as RobotReplyMeta;
  return last.action === 'suggest' ? (last.suggestions[n - 1]?.question ?? null) : null;
}
