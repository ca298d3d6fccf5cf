import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { HEALTH_LIVE_PATH, HEALTH_READY_PATH, type HealthReport } from '@kefu/protocol';
import { buildApp } from '../../app.js';
import { createTestApp, createTestDb, type TestApp, type TestDb } from '../../../test/harness.js';
import { until } from '../../../test/live.js';
import { markDraining } from './health.routes.js';

const REDIS = process.env.REDIS_URL;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function testApp(): Promise<TestApp> {
  const t = await createTestApp();
  cleanups.push(() => t.close());
  return t;
}

/** A TCP port nothing listens on (bound, then released). */
const closedPort = (): Promise<number> =>
  new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => res(port));
    });
  });

async function appWithRedis(tdb: TestDb, redisUrl: string) {
  const { app } = await buildApp({ config: { ...tdb.config, redisUrl }, db: tdb.db });
  await app.ready();
  cleanups.push(async () => {
    await app.close();
    await tdb.drop();
  });
  return app;
}

describe('health probes', () => {
  it('live answers without a token; ready checks the database and says off for an unset Redis', async () => {
    const t = await testApp();
    const live = await t.app.inject({ url: HEALTH_LIVE_PATH });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: HEALTH_READY_PATH });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.json<HealthReport>()).toEqual({ status: 'ok', database: 'ok', redis: 'off' });
  });

  it('ready turns 503 draining once shutdown begins; live stays 200', async () => {
    const t = await testApp();
    markDraining(t.app);
    const ready = await t.app.inject({ url: HEALTH_READY_PATH });
    expect(ready.statusCode).toBe(503);
    expect(ready.json<HealthReport>().status).toBe('draining');
    expect((await t.app.inject({ url: HEALTH_LIVE_PATH })).statusCode).toBe(200);
  });

  it('ready is 503 with database down when the database does not answer', async () => {
    const tdb = await createTestDb();
    const { app } = await buildApp({ config: tdb.config, db: tdb.db });
    await app.ready();
    await tdb.db.close();
    try {
      const ready = await app.inject({ url: HEALTH_READY_PATH });
      expect(ready.statusCode).toBe(503);
      expect(ready.json<HealthReport>()).toMatchObject({ status: 'unavailable', database: 'down' });
    } finally {
      await app.close();
      await tdb.drop().catch(() => undefined); // already closed
    }
  });

  it('ready is 503 with redis down when the configured Redis cannot be reached', async () => {
    const app = await appWithRedis(await createTestDb(), `redis://127.0.0.1:${await closedPort()}`);
    const ready = await app.inject({ url: HEALTH_READY_PATH });
    expect(ready.statusCode).toBe(503);
    expect(ready.json<HealthReport>()).toEqual({ status: 'unavailable', database: 'ok', redis: 'down' });
  });

  it.skipIf(!REDIS)('ready is 200 with redis ok once the configured Redis is connected', async () => {
    const app = await appWithRedis(await createTestDb(), REDIS!);
    let report: HealthReport | undefined;
    await until(async () => {
      const r = await app.inject({ url: HEALTH_READY_PATH });
      report = r.json<HealthReport>();
      return r.statusCode === 200;
    });
    expect(report).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
  });
});
