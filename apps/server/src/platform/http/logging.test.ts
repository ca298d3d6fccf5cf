import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { seed } from '../../modules/seed/seed.service.js';
import { createTestDb, type TestDb } from '../../../test/harness.js';
import { ADMIN_PASSWORD } from '../../../test/factories.js';
import { redactUrl } from './logging.js';

let tdb: TestDb | undefined;
afterEach(async () => {
  await tdb?.drop();
  tdb = undefined;
});

describe('secrets never reach the log', () => {
  it('masks tokens and passwords in request URLs, bodies and logged strings', async () => {
    tdb = await createTestDb();
    await seed(tdb.db, tdb.config);
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (c: Buffer) => lines.push(c.toString('utf8')));
    const { app } = await buildApp({
      // Request lines are logged at debug (request-log.ts).
      config: { ...tdb.config, logLevel: 'debug' },
      db: tdb.db,
      logger: true,
      logStream: stream,
    });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/tokens',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      });
      const token = login.json<{ data: { token: string } }>().data.token;
      const auth = { authorization: token };
      await app.inject({
        url: '/api/agent/my/updatePassword?oldpassword=OldSecret1&password=NewSecret9',
        headers: auth,
      });
      await app.inject({ url: `/res/image.html?id=nothing&authorization=${token}` });
      await app.inject({ url: `/api/agent?authorization=${token}&l=en` });
      await app.inject({ method: 'POST', url: '/im/upload?vt=visitor1.VisitorSecret7&kind=image' });
      await app.inject({ url: '/socket-ish?session=SessionSecret3&token=TokenSecret4' });
      app.log.info(
        { body: { username: 'admin', password: 'BodySecret5', oldpassword: 'BodySecret6' } },
        'a body',
      );
      app.log.info({ query: { vt: 'QuerySecret8' }, headers: { authorization: 'HeaderSecret2' } }, 'parts');
      app.log.warn(`retrying GET /api/x?authorization=${token}`);
    } finally {
      await app.close();
    }
    const out = lines.join('');
    expect(out).toContain('/res/image.html?id=nothing&authorization=[redacted]');
    expect(out).toContain('/api/agent/my/updatePassword?oldpassword=[redacted]&password=[redacted]');
    expect(out).toContain('vt=[redacted]&kind=image');
    for (const secret of [
      ADMIN_PASSWORD,
      'OldSecret1',
      'NewSecret9',
      'VisitorSecret7',
      'SessionSecret3',
      'TokenSecret4',
      'BodySecret5',
      'BodySecret6',
      'QuerySecret8',
      'HeaderSecret2',
    ])
      expect(out, secret).not.toContain(secret);
    const token = /"token":"([0-9a-f]{64})"/.exec(out)?.[1];
    expect(token).toBeUndefined();
    expect(out).not.toMatch(/[0-9a-f]{64}/); // no token, wherever it was
  });

  it('redactUrl keeps every other parameter', () => {
    expect(redactUrl('/res/file.html?id=7&authorization=abc&l=en')).toBe(
      '/res/file.html?id=7&authorization=[redacted]&l=en',
    );
    expect(redactUrl('/x?Password=p&TOKEN=t#h')).toBe('/x?Password=[redacted]&TOKEN=[redacted]#h');
    expect(redactUrl('/x?id=1&passwordless=1')).toBe('/x?id=1&passwordless=1');
  });
});
