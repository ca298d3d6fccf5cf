import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageDto, TranslateConfigDto, TranslateResultDto, VisitorNewResult } from '@kefu/protocol';
import { call, expectError, perTest, userWithCodes } from '../../../test/factories.js';
import {
  addAccessPoint,
  addUserWithCodes,
  api,
  call as emit,
  ok,
  socketAgent,
  visitorReady,
  type LiveServer,
} from '../../../test/live.js';
import { insertUser } from '../../../test/harness.js';
import { issueToken } from '../../platform/auth/tokens.js';

const env = perTest();

interface Seen {
  path: string;
  auth: string;
  body: Record<string, unknown>;
}

/**
 * A real HTTP server speaking LibreTranslate (POST /translate) and the OpenAI chat API (POST
 * /v1/chat/completions). A text containing "hang" is never answered; "broken" gets a 500.
 */
const servers: Server[] = [];
async function provider(): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      seen.push({ path: req.url ?? '', auth: req.headers.authorization ?? '', body });
      const send = (status: number, v: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(v));
      };
      if (req.method === 'POST' && req.url === '/translate') {
        const q = String(body.q);
        if (q.includes('hang')) return;
        if (q.includes('broken') || body.api_key !== 'libre-key') return send(500, { error: 'no' });
        return send(200, { translatedText: `[${String(body.source)}→${String(body.target)}] ${q}` });
      }
      if (req.method === 'POST' && req.url === '/v1/chat/completions') {
        if (req.headers.authorization !== 'Bearer sk-test') return send(401, { error: 'key' });
        const msgs = body.messages as Array<{ role: string; content: string }>;
        const text = msgs.find((m) => m.role === 'user')?.content ?? '';
        return send(200, { choices: [{ message: { role: 'assistant', content: `译文：${text}` } }] });
      }
      send(404, {});
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A live chat with a visitor whose widget speaks `lang`, the translation flag on, the provider given. */
async function chat(lang: string, setup: Record<string, unknown>) {
  const srv = await env.live();
  const adminId = (await insertUser(srv.tdb.db, { usertype: '0' })).id;
  const admin = await issueToken(srv.tdb.db.kysely, adminId, 'kefu', 3_600_000);
  expect((await api(srv, admin, '/api/sessionConfig/other/save', { msgtranslate: true })).json.success).toBe(
    true,
  );
  const saved = await api(srv, admin, '/api/translateMessage/config/save', setup);
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
  const appid = await addAccessPoint(srv.tdb);
  const agent = await socketAgent(srv, env.sockets);
  const v = await visitorReady(srv.url, appid, undefined, { l: lang });
  env.sockets.push(v.s);
  const sid = ok(await emit<VisitorNewResult>(v.s, 'new')).agentserviceid;
  let n = 0;
  const say = async (message: string) =>
    ok(
      await emit<MessageDto>(v.s, 'message', { clientId: `tr-msg-${String(n++).padStart(4, '0')}`, message }),
    );
  const translate = (messageid: string, token = agent.token) =>
    api<TranslateResultDto>(srv, token, '/api/translateMessage/translate', {
      messageid,
      orgi: 'kefu',
      message: 'ignored: the stored text is translated',
      userid: v.userid,
      type: 'agent',
    });
  return { srv, admin, agent, v, sid, say, translate };
}

const stored = (srv: LiveServer) =>
  srv.tdb.db.kysely
    .selectFrom('message_translation')
    .select(['messageid', 'lang', 'text', 'provider'])
    .execute();

describe('translation provider setup (/api/translateMessage/config)', () => {
  it('saved with A09_A03_A11 (key kept, never sent back, not in the audit record); bad input refused', async () => {
    const t = await env.seeded();
    const get = async () =>
      (await call<TranslateConfigDto>(t.app, t.adminToken, 'GET', '/api/translateMessage/config')).body.data;
    expect(await get()).toEqual({ provider: 'none', url: '', model: '', timeoutMs: 10_000, hasKey: false });
    const save = (body: Record<string, unknown>, token = t.adminToken) =>
      call<TranslateConfigDto>(t.app, token, 'POST', '/api/translateMessage/config/save', body);
    const saved = await save({ provider: 'libre', url: 'http://127.0.0.1:5000/', key: 'libre-secret' });
    expect(saved.body.data).toEqual({
      provider: 'libre',
      url: 'http://127.0.0.1:5000/',
      model: '',
      timeoutMs: 10_000,
      hasKey: true,
    });
    // Saved again without a key: the stored one stays.
    expect(
      (await save({ provider: 'libre', url: 'http://127.0.0.1:5000', timeoutMs: 2000 })).body.data,
    ).toMatchObject({
      hasKey: true,
      timeoutMs: 2000,
    });
    expect(JSON.stringify(await get())).not.toContain('libre-secret');
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'translateMessage.config.save')
      .execute();
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit)).not.toContain('libre-secret');

    for (const [body, field, key] of [
      [{ provider: 'deepl', url: 'http://x' }, 'provider', 'invalid_field'],
      [{ provider: 'libre' }, 'url', 'required'],
      [{ provider: 'libre', url: 'ftp://x' }, 'url', 'invalid_field'],
      [{ provider: 'openai', url: 'http://x/v1' }, 'model', 'required'],
      [{ provider: 'libre', url: 'http://x', timeoutMs: 10 }, 'timeoutMs', 'invalid_field'],
      [{ provider: 'libre', url: 'http://x', key: 'k'.repeat(501) }, 'key', 'too_long'],
    ] as const) {
      const r = await save(body);
      expect(r.body, JSON.stringify(body)).toMatchObject({
        success: false,
        key: 'invalid_field' === key ? key : key,
      });
      expect(JSON.stringify(r.body)).toContain(field);
    }
    expect((await get()).timeoutMs).toBe(2000);
    const agent = await userWithCodes(t, ['A01']);
    expectError(await save({ provider: 'none' }, agent.token), 'forbidden', 403);
    expect((await call(t.app, agent.token, 'GET', '/api/translateMessage/config')).status).toBe(403);
  });
});

describe('POST /api/translateMessage/translate', () => {
  it('LibreTranslate: an English visitor text translated into the agent language, kept, answered again from the store', async () => {
    const p = await provider();
    const c = await chat('en-US', { provider: 'libre', url: p.url, key: 'libre-key' });
    const entry = await c.srv.tdb.db.kysely
      .selectFrom('agent_user')
      .select('langto')
      .where('agentserviceid', '=', c.sid)
      .executeTakeFirstOrThrow();
    expect(entry.langto).toBe('en-US');
    const m = await c.say('Where is my order?');
    const r = await c.translate(m.id);
    expect(r.json, JSON.stringify(r.json)).toMatchObject({
      success: true,
      data: {
        messageid: m.id,
        translateMessage: { messageid: m.id, translatemsg: '[en→zh] Where is my order?' },
      },
    });
    expect(p.seen).toEqual([
      {
        path: '/translate',
        auth: '',
        body: { q: 'Where is my order?', source: 'en', target: 'zh', format: 'text', api_key: 'libre-key' },
      },
    ]);
    expect(await stored(c.srv)).toEqual([
      { messageid: m.id, lang: 'zh', text: '[en→zh] Where is my order?', provider: 'libre' },
    ]);
    // Asked again (another page load): the kept text, no second provider call.
    expect((await c.translate(m.id)).json.data.translateMessage.translatemsg).toBe(
      '[en→zh] Where is my order?',
    );
    expect(p.seen).toHaveLength(1);
    // The original message is untouched.
    const row = await c.srv.tdb.db.kysely
      .selectFrom('chat_message')
      .select('message')
      .where('id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(row.message).toBe('Where is my order?');
    // Once the chat is over, history shows the kept translation under the line.
    ok(await emit(c.v.s, 'end', {}));
    const hist = await api<{ list: MessageDto[] }>(
      c.srv,
      c.agent.token,
      `/api/agentService/message/list?agentserviceid=${c.sid}`,
    );
    expect(hist.json.success, JSON.stringify(hist.json)).toBe(true);
    const line = hist.json.data.list.find((x) => x.id === m.id);
    expect(line?.translatemsg, JSON.stringify(hist.json)).toBe('[en→zh] Where is my order?');
  });

  it('OpenAI-compatible: a chat completion with the bearer key and model', async () => {
    const p = await provider();
    const c = await chat('en', {
      provider: 'openai',
      url: `${p.url}/v1/`,
      key: 'sk-test',
      model: 'mt-small',
    });
    const m = await c.say('Hello');
    const r = await c.translate(m.id);
    expect(r.json.data?.translateMessage.translatemsg, JSON.stringify(r.json)).toBe('译文：Hello');
    expect(p.seen[0]).toMatchObject({ path: '/v1/chat/completions', auth: 'Bearer sk-test' });
    expect(p.seen[0]!.body).toMatchObject({ model: 'mt-small', temperature: 0 });
    expect(JSON.stringify(p.seen[0]!.body.messages)).toContain('into Simplified Chinese');
  });

  it('a hanging or failing provider: translate_failed, nothing stored, the original kept; a retry works', async () => {
    const p = await provider();
    const c = await chat('en', { provider: 'libre', url: p.url, key: 'libre-key', timeoutMs: 1000 });
    const hang = await c.say('please hang on');
    const started = Date.now();
    const r = await c.translate(hang.id);
    expect(r.status).toBe(502);
    expect(r.json).toMatchObject({
      success: false,
      key: 'translate_failed',
      code: 502,
      fields: { provider: 'timeout' },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    const broken = await c.say('broken text');
    expect((await c.translate(broken.id)).json).toMatchObject({ success: false, key: 'translate_failed' });
    expect(await stored(c.srv)).toEqual([]);
    // The provider's key fixed by the admin: the retry of the failed message goes through.
    await api(c.srv, c.admin, '/api/translateMessage/config/save', {
      provider: 'openai',
      url: `${p.url}/v1`,
      key: 'sk-test',
      model: 'm',
    });
    expect((await c.translate(broken.id)).json.data?.translateMessage.translatemsg).toBe('译文：broken text');
  });

  it('refused: not applicable (outgoing, same language, flag off, no provider), another agent, no A01, bad input', async () => {
    const p = await provider();
    const c = await chat('en', { provider: 'libre', url: p.url, key: 'libre-key' });
    const m = await c.say('Hi');
    const out = ok(
      await emit<MessageDto>(c.agent.sock, 'message', {
        touser: c.v.userid,
        agentserviceid: c.sid,
        clientId: 'tr-out-0001',
        message: '您好',
      }),
    );
    expect((await c.translate(out.id)).json).toMatchObject({ success: false, key: 'invalid_field' });
    // A supervisor or another agent is not the chat's agent.
    const other = await tokenWith(c.srv, ['A01', 'A03']);
    expect((await c.translate(m.id, other)).json).toMatchObject({
      success: false,
      key: 'forbidden',
      code: 403,
    });
    const noChat = await tokenWith(c.srv, ['A02']);
    expect((await c.translate(m.id, noChat)).status).toBe(403);
    expect((await c.translate('missing-id')).json).toMatchObject({ success: false, key: 'not_found' });
    const bad = await api(c.srv, c.agent.token, '/api/translateMessage/translate', { type: 'visitor' });
    expect(bad.json).toMatchObject({ success: false, key: 'required' });
    // The agent works in English too: nothing to translate.
    await c.srv.tdb.db.kysely
      .updateTable('users')
      .set({ language: 'en' })
      .where('id', '=', c.agent.id)
      .execute();
    expect((await c.translate(m.id)).json).toMatchObject({ success: false, key: 'invalid_field' });
    await c.srv.tdb.db.kysely
      .updateTable('users')
      .set({ language: 'zh' })
      .where('id', '=', c.agent.id)
      .execute();
    // No provider: nothing can be translated.
    await api(c.srv, c.admin, '/api/translateMessage/config/save', { provider: 'none' });
    expect((await c.translate(m.id)).json).toMatchObject({ success: false, key: 'translate_disabled' });
    // The session flag off.
    await api(c.srv, c.admin, '/api/sessionConfig/other/save', { msgtranslate: false });
    expect((await c.translate(m.id)).json).toMatchObject({ success: false, key: 'translate_disabled' });
    expect(p.seen).toHaveLength(0);
    expect(await stored(c.srv)).toEqual([]);
  });
});

const tokenWith = async (srv: LiveServer, codes: string[]) => (await addUserWithCodes(srv.tdb, codes)).token;
