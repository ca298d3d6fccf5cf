import { describe, expect, it } from 'vitest';
import type {
  MessageDto,
  QuickFileDto,
  QuickFileSendDto,
  ShortcutsDto,
  VisitorNewResult,
} from '@kefu/protocol';
import { call, count, expectError, perTest, userWithCodes } from '../../../test/factories.js';
import { addAccessPoint, call as emit, ok, socketAgent, visitorReady } from '../../../test/live.js';
import { b, upload } from '../media/media-fixtures.js';

const env = perTest();
const PDF = b('%PDF-1.7\n', 'x'.repeat(200));

describe('quick files (/api/agent/quickFile)', () => {
  it('an upload kept as a personal or public quick file, listed, ranked, deleted; public ones need A09_A03_A09', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01']);
    const up = await upload(
      t,
      '/api/file/upload',
      { authorization: agent.token },
      'price.pdf',
      'application/pdf',
      PDF,
    );
    expect(up.json.success, JSON.stringify(up.json)).toBe(true);
    const post = <T>(url: string, body: Record<string, unknown>, token = agent.token) =>
      call<T>(t.app, token, 'POST', url, body);
    const mine = await post<QuickFileDto>('/api/agent/quickFile/save', {
      mediaid: up.json.data.id,
      name: '价格表.pdf',
    });
    expect(mine.body.data).toMatchObject({ name: '价格表.pdf', scope: 'pri', filesize: PDF.length });
    expectError(
      await post('/api/agent/quickFile/save', { mediaid: up.json.data.id, scope: 'pub' }),
      'forbidden',
      403,
    );
    // Another user's upload cannot be taken.
    const other = await userWithCodes(t, ['A01']);
    expectError(
      await post('/api/agent/quickFile/save', { mediaid: up.json.data.id }, other.token),
      'invalid_field',
    );

    const up2 = await upload(
      t,
      '/api/file/upload',
      { authorization: t.adminToken },
      'guide.pdf',
      'application/pdf',
      PDF,
    );
    const pub = await post<QuickFileDto>(
      '/api/agent/quickFile/save',
      { mediaid: up2.json.data.id, scope: 'pub' },
      t.adminToken,
    );
    const second = await post<QuickFileDto>('/api/agent/quickFile/save', {
      mediaid: up.json.data.id,
      name: 'b.pdf',
    });
    const list = async (token = agent.token) =>
      (await call<QuickFileDto[]>(t.app, token, 'GET', '/api/agent/quickFile/list')).body.data.map(
        (f) => f.name,
      );
    expect(await list()).toEqual(['价格表.pdf', 'b.pdf', 'guide.pdf']);
    expect(await list(other.token)).toEqual(['guide.pdf']);
    await post('/api/agent/quickFile/rank', { scope: 'pri', ids: [second.body.data.id] });
    expect(await list()).toEqual(['b.pdf', '价格表.pdf', 'guide.pdf']);
    expectError(await post('/api/agent/quickFile/delete', { id: pub.body.data.id }), 'forbidden', 403);
    expectError(
      await post('/api/agent/quickFile/delete', { id: mine.body.data.id }, other.token),
      'not_found',
      404,
    );
    await post('/api/agent/quickFile/delete', { id: mine.body.data.id });
    expect(await list()).toEqual(['b.pdf', 'guide.pdf']);
    expect(await count(t.db, 'quick_file')).toBe(2);
  });

  it('send: a public file goes out as a file message from any agent', async () => {
    const srv = await env.live();
    const appid = await addAccessPoint(srv.tdb);
    const owner = await socketAgent(srv, env.sockets);
    const up = await upload(
      srv,
      '/api/file/upload',
      { authorization: owner.token },
      'menu.pdf',
      'application/pdf',
      PDF,
    );
    await srv.tdb.db.kysely
      .insertInto('quick_file')
      .values({
        id: 'qf-public',
        orgi: 'kefu',
        owner: '',
        name: '菜单.pdf',
        mediaid: up.json.data.id,
        filesize: PDF.length,
        mime: 'application/pdf',
        sortindex: 0,
        creater: owner.id,
        createtime: Date.now(),
        updatetime: Date.now(),
      })
      .execute();
    // The chat goes to a second agent, who did not upload the file.
    await emit(owner.sock, 'agentstatus', { status: 'notready' });
    const agent = await socketAgent(srv, env.sockets);
    const v = await visitorReady(srv.url, appid);
    env.sockets.push(v.s);
    const sid = ok(await emit<VisitorNewResult>(v.s, 'new')).agentserviceid;
    const res = await srv.app.inject({
      method: 'GET',
      url: '/api/agent/quickFile/send?id=qf-public',
      headers: { authorization: agent.token },
    });
    const prepared = res.json<{ data: QuickFileSendDto }>().data;
    expect(prepared).toMatchObject({ msgtype: 'file', filename: '菜单.pdf', filesize: PDF.length });
    const sent = ok(
      await emit<MessageDto>(agent.sock, 'message', {
        touser: v.userid,
        agentserviceid: sid,
        clientId: 'qf-send-0001',
        msgtype: prepared.msgtype,
        attachmentid: prepared.attachmentid,
        message: prepared.filename,
      }),
    );
    expect(sent).toMatchObject({
      msgtype: 'file',
      filename: '菜单.pdf',
      attachmentid: prepared.attachmentid,
    });
  });
});

describe('shortcuts (/api/agent/shortcutsSave)', () => {
  it('kept per agent, defaults first, bad values refused', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01']);
    const read = async () =>
      (await call<ShortcutsDto>(t.app, agent.token, 'GET', '/api/agent/shortcuts')).body.data;
    expect(await read()).toEqual({ send: 'enter', quick: 'ctrl+/' });
    const saved = await call<ShortcutsDto>(
      t.app,
      agent.token,
      'GET',
      '/api/agent/shortcutsSave?send=ctrlEnter',
    );
    expect(saved.body.data).toEqual({ send: 'ctrlEnter', quick: 'ctrl+/' });
    expectError(
      await call(t.app, agent.token, 'POST', '/api/agent/shortcutsSave', { quick: 'f1' }),
      'invalid_field',
    );
    expect(await read()).toEqual({ send: 'ctrlEnter', quick: 'ctrl+/' });
    expect(
      (await call<ShortcutsDto>(t.app, t.adminToken, 'GET', '/api/agent/shortcuts')).body.data.send,
    ).toBe('enter');
    const visitorOnly = await userWithCodes(t, ['A02']);
    for (const url of ['/api/agent/shortcuts', '/api/agent/shortcutsSave', '/api/agent/quickFile/list'])
      expect((await call(t.app, visitorOnly.token, 'GET', url)).status, url).toBe(403);
  });
});
