import { CHANNEL_SATIS_HINT, CHANNEL_SATIS_REPLY_MS } from '@kefu/protocol';
import { AppError } from '../../platform/http/errors.js';
import * as srepo from '../conversation/service.repository.js';
import { rateConversation, settings } from '../satisfaction/satisfaction.service.js';
import type { UserRow } from './adapters/adapter.js';
import { numberReply } from './numbered-reply.js';
import type { ChannelRuntime } from './runtime.js';

/**
 * Satisfaction where the user has no widget (CHANNEL_SATIS_HINT): the invitation's text with the tenant's
 * levels to answer by number.
 */
export async function satisfactionPrompt(rt: ChannelRuntime, orgi: string, message: string): Promise<string> {
  const st = await settings(rt.e.db, orgi);
  const levels = st.levels.map((l) => `${l.value} ${l.name}`);
  return [message, CHANNEL_SATIS_HINT, ...levels].filter(Boolean).join('\n');
}

/**
 * A user's text that answers a pending invitation (the latest conversation was invited, not yet rated
 * unless re-rating is allowed, within CHANNEL_SATIS_REPLY_MS) with a level's number rates it; the thanks
 * go out. Returns the rated conversation's status, or null when the text is no rating (it is then an
 * ordinary message).
 */
export async function ratedByReply(
  rt: ChannelRuntime,
  user: UserRow,
  text: string,
): Promise<'open' | 'ended' | null> {
  const level = numberReply(text);
  if (level === null) return null;
  const s = await srepo.latestServiceOf(rt.e.db.kysely, user.orgi, user.id);
  if (!s || Number(s.invite) !== 1 || s.invitedate === null) return null;
  if (rt.now() - Number(s.invitedate) > CHANNEL_SATIS_REPLY_MS) return null;
  try {
    await rateConversation(rt.e.db, s, { level });
  } catch (err) {
    // Not a level, rated already, satisfaction turned off: the number is just a message.
    if (err instanceof AppError && err.code === 400) return null;
    throw err;
  }
  return s.status === 'end' ? 'ended' : 'open';
}
