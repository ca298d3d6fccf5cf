import type { Db } from '../../platform/db/database.js';
import type { InboundItem } from './adapters/adapter.js';
import * as repo from './channels.repository.js';

/**
 * The auto-replies (spec `imr`) a received item triggers on its account: a keyword rule answers a text
 * equal to its keyword (or containing it, with `contains`); a menu rule answers a menu click (official
 * account CLICK event key, KF menu_id) equal to its keyword; a subscribe rule answers a follow (a KF user
 * entering the session: its welcome).
 */
export async function autoReplies(k: Db['kysely'], accountid: string, item: InboundItem): Promise<string[]> {
  const rules = await repo.imrRules(k, accountid);
  if (rules.length === 0) return [];
  const text = item.kind === 'message' && item.msgtype === 'text' ? item.text.trim() : '';
  const click =
    item.event === 'CLICK' ? (item.eventKey ?? '') : item.kind === 'message' ? (item.eventKey ?? '') : '';
  return rules
    .filter((r) =>
      r.kind === 'keyword'
        ? !!text && !!r.keyword && (Number(r.contains) ? text.includes(r.keyword) : text === r.keyword)
        : r.kind === 'menu'
          ? !!click && click === r.keyword
          : r.kind === 'subscribe' && (item.event === 'subscribe' || item.event === 'enter_session'),
    )
    .map((r) => r.reply);
}
