import { describe, expect, it } from 'vitest';
import { perTest } from '../../../test/factories.js';
import type { MessageDto, VisitorNewResult } from '@kefu/protocol';
import {
  addAccessPoint,
  addAgent,
  agentSocket,
  call,
  connected,
  ok,
  visitorReady,
} from '../../../test/live.js';
import { PNG, upload } from './media-fixtures.js';

const env = perTest();

describe('uploads and media', () => {
  it('checks type and size; serves media to agents and to the visitor of the conversation only', async () => {
    const srv = await env.live();
    const appid = await addAccessPoint(srv.tdb);
    const a = await addAgent(srv.tdb);
    const auth = { authorization: a.token };
    expect(
      (await upload(srv, '/api/upload', auth, 'x.png', 'image/png', Buffer.from('not an image'))).json.key,
    ).toBe('image_format');
    expect(
      (await upload(srv, '/api/upload', auth, 'x.txt', 'text/plain', Buffer.from('hello'))).json.key,
    ).toBe('image_format');
    const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
    expect((await upload(srv, '/api/upload', auth, 'big.png', 'image/png', big)).json.key).toBe(
      'file_too_large',
    );
    const huge = Buffer.alloc(20 * 1024 * 1024 + 10);
    expect(
      (await upload(srv, '/api/file/upload', auth, 'big.bin', 'application/octet-stream', huge)).status,
    ).toBe(413);
    const voice = await upload(srv, '/api/voice/upload', auth, 'a.wav', 'audio/wav', Buffer.from('RIFF'));
    expect(voice.json.msg).toBe('audio file format error, supports mp3/mpeg/ogg');
    expect(
      (await upload(srv, '/api/voice/upload', auth, 'a.mp3', 'audio/mpeg', Buffer.from('ID3'))).json.success,
    ).toBe(true);
    const img = await upload(srv, '/api/upload', auth, 'ok.png', 'image/png', PNG);
    expect(img.json.success).toBe(true);
    const id = img.json.data.id;
    expect((await srv.app.inject({ url: `/res/image.html?id=${id}` })).statusCode).toBe(401);
    const got = await srv.app.inject({ url: `/res/image.html?id=${id}&authorization=${a.token}` });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    // the agent sends it to a visitor: that visitor may fetch it, another may not
    const as = agentSocket(srv.url, a.token);
    env.sockets.push(as);
    await connected(as);
    ok(await call(as, 'agentstatus', { status: 'ready' }));
    const v = await visitorReady(srv.url, appid);
    env.sockets.push(v.s);
    ok(await call<VisitorNewResult>(v.s, 'new'));
    const m = ok(
      await call<MessageDto>(as, 'message', {
        touser: v.userid,
        clientId: 'c-img-0001',
        msgtype: 'image',
        attachmentid: id,
        message: '',
      }),
    );
    expect(m.attachmentid).toBe(id);
    const vt = `${v.userid}.${v.token}`;
    expect((await srv.app.inject({ url: `/res/image.html?id=${id}&vt=${vt}` })).statusCode).toBe(200);
    const other = await visitorReady(srv.url, appid);
    env.sockets.push(other.s);
    expect(
      (await srv.app.inject({ url: `/res/image.html?id=${id}&vt=${other.userid}.${other.token}` }))
        .statusCode,
    ).toBe(403);
    const vis = await upload(srv, `/im/upload?vt=${vt}&kind=image`, {}, 'v.png', 'image/png', PNG);
    expect(vis.json.success).toBe(true);
  });
});
