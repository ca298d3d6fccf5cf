import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { HEALTH_LIVE_PATH } from '@kefu/protocol';
import { buildApp } from '../../app.js';
import { createTestDb, type TestDb } from '../../../test/harness.js';

let tdb: TestDb | undefined;
afterEach(async () => {
  await tdb?.drop();
  tdb = undefined;
});

async function requestLines(logLevel: string): Promise<Array<Record<string, unknown>>> {
  tdb ??= await createTestDb();
  const lines: string[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (c: Buffer) => lines.push(...c.toString('utf8').split('\n').filter(Boolean)));
  const { app } = await buildApp({
    config: { ...tdb.config, logLevel },
    db: tdb.db,
    logger: true,
    logStream,
  });
  try {
    await app.inject({ url: HEALTH_LIVE_PATH });
    await app.inject({ url: `${HEALTH_LIVE_PATH}?x=1` });
  } finally {
    await app.close();
  }
  return lines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.req !== undefined || r.res !== undefined);
}

describe('request log', () => {
  it('writes no line per request at the default level', async () => {
    expect(await requestLines('info')).toEqual([]);
  });

  it('writes one line per request at debug, with method, URL, status and time', async () => {
    const lines = await requestLines('debug');
    expect(lines).toHaveLength(2);
    expect(
      lines.map((l) => [
        l.level,
        l.msg,
        (l.req as { url: string }).url,
        (l.res as { statusCode: number }).statusCode,
      ]),
    ).toEqual([
      [20, 'request completed', HEALTH_LIVE_PATH, 200],
      [20, 'request completed', `${HEALTH_LIVE_PATH}?x=1`, 200],
    ]);
    expect(typeof lines[0]!.responseTime).toBe('number');
  });
});
