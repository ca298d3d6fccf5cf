import type { Redis } from 'ioredis';

/**
 * Closes a Redis connection at shutdown. QUIT waits in ioredis' offline queue until Redis answers, which
 * never happens while Redis is down (our connections retry forever), and the shutdown would hang; a
 * connection that is not ready is dropped instead.
 */
export async function closeRedis(r: Redis): Promise<void> {
  if (r.status === 'ready') await r.quit().catch(() => undefined);
  else r.disconnect();
}
