import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/database.js';
import { hashToken, revokeToken } from '../../platform/auth/tokens.js';
import { invalidateToken } from '../../platform/auth/cache.js';
import { unauthorized } from '../../platform/http/errors.js';
import { orgSettings } from '../../platform/settings/org-settings.js';
import { POLICY_SETTING, readPolicy } from './policy.js';

/** Calls the console makes on its own (heartbeat, polls): they do not count as the user being active. */
const BACKGROUND = new Set(['/api/agent/ping', '/api/agent/status', '/api/export/job', '/api/leavemsg/size']);
/** tokens.lastused is written at most this often per token and node. */
const WRITE_EVERY_MS = 60_000;

/**
 * Session idle timeout (corporate policy idleMinutes): a token not used for that long is revoked at its
 * next request (401 token_expired), which also drops its sockets (platform/auth/cache). Activity is kept
 * per node in memory and in tokens.lastused (written at most once a minute), and a token is only ended
 * when the stored time agrees, so another node's traffic keeps it alive. Realtime events are not
 * activity; the console's own HTTP calls (other than its heartbeat and polls) are.
 */
export function installIdleTimeout(app: FastifyInstance, db: Db): void {
  const seen = new Map<string, number>();
  const written = new Map<string, number>();
  const sweep = setInterval(() => {
    const old = Date.now() - 24 * 3_600_000;
    for (const [h, t] of seen) {
      if (t >= old) continue;
      seen.delete(h);
      written.delete(h);
    }
  }, 10 * 60_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  app.addHook('onRequest', async (req) => {
    const u = req.user;
    if (!u) return;
    const { value: policy } = await orgSettings(db).get(u.orgi, POLICY_SETTING, readPolicy);
    if (!policy.idleMinutes) return;
    const limit = policy.idleMinutes * 60_000;
    const h = hashToken(u.token);
    const now = Date.now();
    let last = seen.get(h);
    if (last === undefined || now - last > limit) {
      const row = await db.kysely
        .selectFrom('tokens')
        .select('lastused')
        .where('id', '=', h)
        .executeTakeFirst();
      last = Math.max(last ?? 0, Number(row?.lastused ?? 0));
    }
    if (now - last > limit) {
      await revokeToken(db.kysely, u.token);
      invalidateToken(db, u.token);
      seen.delete(h);
      throw unauthorized('token_expired');
    }
    const path = req.url.split('?')[0] ?? '';
    if (BACKGROUND.has(path)) {
      seen.set(h, last);
      return;
    }
    seen.set(h, now);
    if (now - (written.get(h) ?? 0) >= WRITE_EVERY_MS) {
      written.set(h, now);
      await db.kysely.updateTable('tokens').set({ lastused: now }).where('id', '=', h).execute();
    }
  });
}
