import { afterAll } from 'vitest';
import { ownRedis } from './redis-server.js';

/**
 * With REDIS_URL set (the PostgreSQL run), each test file gets a private redis-server, started before the
 * file is imported and killed after it: test files run in parallel workers, and Redis pub/sub channels
 * (socket.io adapter, settings and principal invalidations) and rate-limit keys are global to a server,
 * so a shared one would let one file hear another's events. Files never share Redis state this way.
 */
if (process.env.REDIS_URL) {
  const redis = await ownRedis();
  process.env.REDIS_URL = redis.url;
  afterAll(() => redis.stop());
}
