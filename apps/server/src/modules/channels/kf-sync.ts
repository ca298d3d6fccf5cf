import type { AppRow } from './adapters/adapter.js';
import { syncPage } from './adapters/wechat-kf.js';
import * as repo from './channels.repository.js';
import { storeItems } from './inbound.service.js';
import { PlatformError } from './platform-http.js';
import type { ChannelRuntime } from './runtime.js';

/** Pages one pull may read before it yields (a backlog continues on the next push or sweep). */
const MAX_PAGES = 50;

const running = new WeakMap<ChannelRuntime, Map<string, { again: boolean }>>();

/**
 * WeChat KF: reads kf/sync_msg from the stored cursor until has_more is 0 (an empty page may still say
 * more). Each page's items and the next cursor commit together, so a crash resumes at the first page not
 * committed and loses nothing (its items, if any were stored, are recognised by their msgid). One pull per
 * account at a time on a node; a push arriving meanwhile makes it read once more.
 */
export async function pullKf(rt: ChannelRuntime, app: AppRow, scope: string, token: string): Promise<number> {
  let byKey = running.get(rt);
  if (!byKey) running.set(rt, (byKey = new Map()));
  const key = `${app.id}:${scope}`;
  const busy = byKey.get(key);
  if (busy) {
    busy.again = true;
    return 0;
  }
  const state = { again: false };
  byKey.set(key, state);
  let stored = 0;
  try {
    do {
      state.again = false;
      stored += await pullPages(rt, app, scope, token);
    } while (state.again);
  } finally {
    byKey.delete(key);
  }
  return stored;
}

async function pullPages(rt: ChannelRuntime, app: AppRow, scope: string, token: string): Promise<number> {
  const k = rt.e.db.kysely;
  let stored = 0;
  let msgToken = token;
  for (let page = 0; page < MAX_PAGES; page++) {
    const cursor = await repo.cursorOf(k, app.id, scope);
    let p;
    try {
      p = await syncPage(rt, app, scope, msgToken, cursor);
    } catch (err) {
      // An expired callback token: the pull still works without it (rate-limited).
      if (err instanceof PlatformError && err.code === '95007' && msgToken) {
        msgToken = '';
        page--;
        continue;
      }
      throw err;
    }
    const fresh = await k.transaction().execute(async (trx) => {
      const ids = await storeItems(rt, trx, app, p.items);
      await repo.saveCursor(trx, app.id, scope, p.next, rt.now());
      return ids;
    });
    if (fresh.length) rt.kickInbound(fresh);
    stored += fresh.length;
    if (!p.more) break;
  }
  return stored;
}
