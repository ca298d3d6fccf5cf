import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEDIA_CSP, ORPHAN_UPLOAD_TTL_MS, type MessageDto, type VisitorNewResult } from '@kefu/protocol';
import { perTest } from '../../../test/factories.js';
import {
  addAccessPoint,
  addUserWithCodes,
  call,
  ok,
  socketAgent,
  visitorReady,
  type LiveServer,
} from '../../../test/live.js';
import { loadSecurityConfig, type UploadQuota } from '../../platform/http/security-config.js';
import { newId } from '../../platform/ids.js';
import { ORPHAN_SWEEP_MS } from './media.routes.js';
import { PNG, SAMPLES, upload } from './media-fixtures.js';

const env = perTest();

const HTML = Buffer.from('<!doctype html><script>fetch("/api/user/save",{method:"POST"})</script>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
const JS = Buffer.from('alert(document.cookie)');

const get = (s: LiveServer, url: string) => s.app.inject({ url });

/** What a browser would do with the answer: render it (and as what), or save it. */
function served(res: Awaited<ReturnType<typeof get>>) {
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    attachment: String(res.headers['content-disposition'] ?? '').startsWith('attachment'),
    csp: res.headers['content-security-policy'],
    nosniff: res.headers['x-content-type-options'],
  };
}

const download = { type: 'application/octet-stream', attachment: true, csp: MEDIA_CSP, nosniff: 'nosniff' };

describe('uploads are typed by their bytes and served from per-page allow-lists', () => {
  it('HTML, SVG and JavaScript uploaded by an A01 agent are never served inline', async () => {
    const srv = await env.live();
    const a = await addUserWithCodes(srv.tdb, ['A01']);
    const auth = { authorization: a.token };
    // The image and voice routes refuse what is not their media, whatever the client says.
    expect((await upload(srv, '/api/upload', auth, 'x.svg', 'image/svg+xml', SVG)).json.key).toBe(
      'image_format',
    );
    expect((await upload(srv, '/api/upload', auth, 'x.png', 'image/png', HTML)).json.key).toBe(
      'image_format',
    );
    expect((await upload(srv, '/api/voice/upload', auth, 'x.mp3', 'text/html', HTML)).json.key).toBe(
      'audio_format',
    );
    expect((await upload(srv, '/api/voice/upload', auth, 'x.mp3', 'audio/mpeg', HTML)).json.key).toBe(
      'audio_format',
    );
    // The file route keeps them, as opaque files.
    for (const [name, mime, data] of [
      ['x.html', 'text/html', HTML],
      ['x.js', 'application/javascript', JS],
      ['x.svg', 'image/svg+xml', SVG],
      ['x.png', 'image/png', HTML],
    ] as const) {
      const up = await upload(srv, '/api/file/upload', auth, name, mime, data);
      expect(up.json.data, name).toMatchObject({ kind: 'file', mime: 'application/octet-stream' });
      for (const page of ['image', 'file', 'video', 'voice']) {
        const res = await get(srv, `/res/${page}.html?id=${up.json.data.id}&authorization=${a.token}`);
        expect(served(res), `${name} as ${page}`).toMatchObject({ status: 200, ...download });
      }
    }
  });

  it('each page shows only its own media inline, with a sandboxing CSP', async () => {
    const srv = await env.live();
    const a = await addUserWithCodes(srv.tdb, ['A01']);
    const auth = { authorization: a.token };
    const cases = [
      ['/api/upload', 'p.png', SAMPLES.png, 'image', 'image/png'],
      ['/api/file/upload', 'j.jpg', SAMPLES.jpeg, 'image', 'image/jpeg'],
      ['/api/file/upload', 'g.gif', SAMPLES.gif, 'image', 'image/gif'],
      ['/api/file/upload', 'w.webp', SAMPLES.webp, 'image', 'image/webp'],
      ['/api/voice/upload', 'a.mp3', SAMPLES.mp3Frame, 'voice', 'audio/mpeg'],
      ['/api/voice/upload', 'a.ogg', SAMPLES.ogg, 'voice', 'audio/ogg'],
      ['/api/file/upload', 'v.mp4', SAMPLES.mp4, 'video', 'video/mp4'],
      ['/api/file/upload', 'v.webm', SAMPLES.webm, 'video', 'video/webm'],
    ] as const;
    for (const [route, name, data, kind, type] of cases) {
      // The client claims a text type: the bytes decide.
      const up = await upload(srv, route, auth, name, 'text/html', data);
      expect(up.json.data, name).toMatchObject({
        kind,
        mime: type,
        url: `/res/${kind}.html?id=${up.json.data.id}`,
      });
      for (const page of ['image', 'voice', 'video', 'file'] as const) {
        const res = served(
          await get(srv, `/res/${page}.html?id=${up.json.data.id}&authorization=${a.token}`),
        );
        if (page === kind)
          expect(res, `${name} as ${page}`).toMatchObject({
            status: 200,
            type,
            attachment: false,
            csp: MEDIA_CSP,
            nosniff: 'nosniff',
          });
        else expect(res, `${name} as ${page}`).toMatchObject({ status: 200, ...download });
      }
    }
  });

  it('a file stored with a script type before this change is served as a download', async () => {
    const srv = await env.live();
    const a = await addUserWithCodes(srv.tdb, ['A01']);
    const id = newId();
    mkdirSync(join(srv.tdb.config.dataDir, 'uploads'), { recursive: true });
    writeFileSync(join(srv.tdb.config.dataDir, 'uploads', id), HTML);
    await srv.tdb.db.kysely
      .insertInto('media')
      .values({
        id,
        orgi: 'kefu',
        owner: a.id,
        owner_kind: 'agent',
        kind: 'image',
        mime: 'text/html', // what the client said, as the old server kept it
        size: HTML.length,
        filename: 'x.html',
        path: `uploads/${id}`,
        createtime: Date.now(),
      })
      .execute();
    const res = served(await get(srv, `/res/image.html?id=${id}&authorization=${a.token}`));
    expect(res).toMatchObject({ status: 200, ...download });
  });

  it('a visitor upload through /im/upload is typed the same way', async () => {
    const srv = await env.live();
    const appid = await addAccessPoint(srv.tdb);
    const v = await visitorReady(srv.url, appid);
    env.sockets.push(v.s);
    const vt = `${v.userid}.${v.token}`;
    const asImage = await upload(srv, `/im/upload?vt=${vt}&kind=image`, {}, 'x.png', 'image/png', HTML);
    expect(asImage.json.key).toBe('image_format');
    const asFile = await upload(srv, `/im/upload?vt=${vt}&kind=file`, {}, 'x.html', 'text/html', HTML);
    expect(asFile.json.data).toMatchObject({ kind: 'file', mime: 'application/octet-stream' });
    const res = served(await get(srv, `/res/image.html?id=${asFile.json.data.id}&vt=${vt}`));
    expect(res).toMatchObject({ status: 200, ...download });
  });
});

/** An agent, a visitor in a chat with it, and an image sent each way. */
async function chatWithFiles(srv: LiveServer) {
  const appid = await addAccessPoint(srv.tdb);
  const owner = await socketAgent(srv, env.sockets);
  const v = await visitorReady(srv.url, appid);
  env.sockets.push(v.s);
  ok(await call<VisitorNewResult>(v.s, 'new'));
  const vt = `${v.userid}.${v.token}`;
  const fromAgent = (
    await upload(srv, '/api/upload', { authorization: owner.token }, 'a.png', 'image/png', PNG)
  ).json.data.id;
  ok(
    await call<MessageDto>(owner.sock, 'message', {
      touser: v.userid,
      clientId: 'c-media-agent-1',
      msgtype: 'image',
      attachmentid: fromAgent,
    }),
  );
  const fromVisitor = (await upload(srv, `/im/upload?vt=${vt}&kind=image`, {}, 'v.png', 'image/png', PNG))
    .json.data.id;
  ok(
    await call<MessageDto>(v.s, 'message', {
      clientId: 'c-media-visitor-1',
      msgtype: 'image',
      attachmentid: fromVisitor,
    }),
  );
  return { owner, v, vt, fromAgent, fromVisitor };
}

describe('/res/* checks the conversation, not only the tenant', () => {
  it('another agent of the tenant may not fetch a chat file; its agent and a monitor may', async () => {
    const srv = await env.live();
    const c = await chatWithFiles(srv);
    const stranger = await addUserWithCodes(srv.tdb, ['A01']);
    const monitor = await addUserWithCodes(srv.tdb, ['A03', 'A03_A01']);
    for (const id of [c.fromAgent, c.fromVisitor]) {
      const as = async (token: string) =>
        (await get(srv, `/res/image.html?id=${id}&authorization=${token}`)).statusCode;
      expect(await as(c.owner.token)).toBe(200);
      expect(await as(stranger.token)).toBe(403);
      expect(await as(monitor.token)).toBe(200);
      expect((await get(srv, `/res/image.html?id=${id}&vt=${c.vt}`)).statusCode).toBe(200);
    }
    // An upload nobody has sent yet is its uploader's alone.
    const draft = (
      await upload(srv, '/api/upload', { authorization: stranger.token }, 'd.png', 'image/png', PNG)
    ).json.data.id;
    expect((await get(srv, `/res/image.html?id=${draft}&authorization=${stranger.token}`)).statusCode).toBe(
      200,
    );
    expect((await get(srv, `/res/image.html?id=${draft}&authorization=${c.owner.token}`)).statusCode).toBe(
      403,
    );
  });
});

const quotaOf = (q: Partial<UploadQuota>) => ({
  security: { ...loadSecurityConfig({}), uploadQuota: { ...loadSecurityConfig({}).uploadQuota, ...q } },
});

const bytes = (n: number) => Buffer.concat([SAMPLES.png, Buffer.alloc(n - SAMPLES.png.length)]);

describe('upload quotas', () => {
  it('per visitor and per address: files and bytes over a window', async () => {
    const srv = await env.live(undefined, quotaOf({ visitorFiles: 2, visitorBytes: 1_000, ipFiles: 3 }));
    const appid = await addAccessPoint(srv.tdb);
    const visitor = async () => {
      const v = await visitorReady(srv.url, appid);
      env.sockets.push(v.s);
      return (name: string, data = bytes(100)) =>
        upload(srv, `/im/upload?vt=${v.userid}.${v.token}&kind=image`, {}, name, 'image/png', data);
    };
    const one = await visitor();
    expect((await one('1.png')).json.success).toBe(true);
    expect((await one('2.png')).json.success).toBe(true);
    const third = await one('3.png');
    expect(third.status).toBe(429);
    expect(third.json).toMatchObject({ success: false, key: 'upload_quota', code: 429 });
    // Another visitor from the same address gets what is left of the address's allowance.
    const two = await visitor();
    expect((await two('4.png')).json.success).toBe(true);
    expect((await two('5.png')).json.key).toBe('upload_quota');
    // Bytes: a new visitor (the address allowance grows back after the window).
    await srv.clock.advance(60 * 60_000 + 1);
    const three = await visitor();
    expect((await three('big1.png', bytes(600))).json.success).toBe(true);
    const before = await srv.tdb.db.kysely.selectFrom('media').select('id').execute();
    expect((await three('big2.png', bytes(600))).json.key).toBe('upload_quota');
    // The refused upload left no row and no file behind.
    const after = await srv.tdb.db.kysely.selectFrom('media').select(['id', 'path']).execute();
    expect(after.map((m) => m.id).sort()).toEqual(before.map((m) => m.id).sort());
  });

  it('a tenant storage cap with a clear error; unsent visitor uploads go after a day and free their space', async () => {
    const srv = await env.live(undefined, quotaOf({ tenantBytes: 2_000 }));
    const c = await chatWithFiles(srv); // two small images, sent
    const used = async () =>
      Number(
        (
          await srv.tdb.db.kysely
            .selectFrom('media_usage')
            .select('bytes')
            .where('orgi', '=', 'kefu')
            .executeTakeFirst()
        )?.bytes ?? 0,
      );
    expect(await used()).toBe(2 * PNG.length);
    const byAgent = (name: string, size: number) =>
      upload(srv, '/api/file/upload', { authorization: c.owner.token }, name, 'x', bytes(size));
    const agentFile = await byAgent('a.bin', 900);
    expect(agentFile.json.success).toBe(true);
    const unsent = await upload(srv, `/im/upload?vt=${c.vt}&kind=file`, {}, 'u.bin', 'x', bytes(900));
    expect(unsent.json.success).toBe(true);
    const full = await byAgent('b.bin', 300);
    expect(full.status).toBe(507);
    expect(full.json).toMatchObject({ success: false, key: 'storage_full', code: 507 });
    const total = 2 * PNG.length + 1_800;
    expect(await used()).toBe(total);

    // A day later the unsent visitor upload is gone (row, file and its bytes); sent files and agent uploads stay.
    const path = (id: string) => join(srv.tdb.config.dataDir, 'uploads', id);
    await srv.clock.advance(ORPHAN_SWEEP_MS); // a sweep while it is fresh: kept
    expect(existsSync(path(unsent.json.data.id))).toBe(true);
    // Age every file by a day instead of running a day of session timers on the manual clock.
    await srv.tdb.db.kysely
      .updateTable('media')
      .set((eb) => ({ createtime: eb('createtime', '-', ORPHAN_UPLOAD_TTL_MS) }))
      .execute();
    await srv.clock.advance(ORPHAN_SWEEP_MS);
    expect(existsSync(path(unsent.json.data.id))).toBe(false);
    const left = (await srv.tdb.db.kysely.selectFrom('media').select('id').execute()).map((m) => m.id).sort();
    expect(left).toEqual([c.fromAgent, c.fromVisitor, agentFile.json.data.id].sort());
    for (const id of left) expect(existsSync(path(id))).toBe(true);
    expect(await used()).toBe(total - 900);
    expect((await byAgent('b.bin', 300)).json.success).toBe(true);
  });
});

describe('KEFU_MEDIA_ORIGIN', () => {
  it('serves /res/* only on the media origin, which serves nothing else; the console may embed from it', async () => {
    const security = loadSecurityConfig({ KEFU_MEDIA_ORIGIN: 'https://media.example.com' });
    const srv = await env.live(undefined, { security });
    const a = await addUserWithCodes(srv.tdb, ['A01']);
    const id = (await upload(srv, '/api/upload', { authorization: a.token }, 'p.png', 'image/png', PNG)).json
      .data.id;
    const path = `/res/image.html?id=${id}&authorization=${a.token}`;
    const onApp = await srv.app.inject({ url: path, headers: { host: 'kefu.example.com' } });
    expect(onApp.statusCode).toBe(307);
    expect(onApp.headers.location).toBe(`https://media.example.com${path}`);
    const onMedia = await srv.app.inject({ url: path, headers: { host: 'media.example.com' } });
    expect(served(onMedia)).toMatchObject({ status: 200, type: 'image/png', csp: MEDIA_CSP });
    expect(onMedia.headers['cross-origin-resource-policy']).toBe('cross-origin');
    for (const url of ['/', '/api/agent', '/tokens/info', '/im/config?appid=x'])
      expect((await srv.app.inject({ url, headers: { host: 'media.example.com' } })).statusCode, url).toBe(
        404,
      );
    // The console's own pages may load images and sound from there.
    const csp = String(
      (await srv.app.inject({ url: '/tokens/info', headers: { host: 'kefu.example.com' } })).headers[
        'content-security-policy'
      ],
    );
    expect(csp).toContain("img-src 'self' data: blob: https://media.example.com");
    expect(csp).toContain("media-src 'self' blob: https://media.example.com");
  });
});
