import { describe, expect, it } from 'vitest';
import type { LeaveMessageOffer, VisitorTextsDto, WidgetConfigDto } from '@kefu/protocol';
import { call, expectError, perTest, userWithCodes } from '../../../test/factories.js';
import {
  addAccessPoint,
  addUserWithCodes,
  api,
  call as emit,
  connected,
  next,
  visitorSocket,
  vid,
} from '../../../test/live.js';
import { DEMO_APPID } from '../seed/seed.service.js';

const env = perTest();

const widget = async (t: Parameters<typeof call>[0], l: string) =>
  (await call<WidgetConfigDto>(t, null, 'GET', `/im/config?appid=${DEMO_APPID}&l=${l}`)).body.data;

/** Texts of one row of the setup lists (a schedule, an opinion) per language. */
describe('row texts per language', () => {
  it('an opinion named in English: an English widget lists it so, a Chinese one the base name; refusals', async () => {
    const t = await env.seeded();
    const saved = await call<{ id: string }>(t.app, t.adminToken, 'POST', '/api/opinion/save', {
      name: '回复太慢',
    });
    expect(saved.body.success, JSON.stringify(saved.body)).toBe(true);
    const id = saved.body.data.id;
    const body = { scope: 'opinion', rowid: id, lang: 'en', texts: { name: 'Replies too slow' } };
    const r = await call<VisitorTextsDto>(t.app, t.adminToken, 'POST', '/api/visitorText/save', body);
    expect(r.body.data).toMatchObject({ rowid: id, texts: { name: 'Replies too slow' } });
    expect(r.body.data.defaults.name).toBe('回复太慢');

    const name = (w: WidgetConfigDto) => w.satisfaction.opinions.find((o) => o.id === id)?.name;
    expect(name(await widget(t.app, 'en'))).toBe('Replies too slow');
    expect(name(await widget(t.app, 'zh'))).toBe('回复太慢');

    // Another tenant's opinion (or none) is not found; the row is required; the code is checked.
    const now = Date.now();
    await t.db.kysely
      .insertInto('satis_opinion')
      .values({ id: 'other-op', orgi: 'other', name: '别家', createtime: now, updatetime: now })
      .execute();
    const other = { ...body, rowid: 'other-op' };
    expectError(await call(t.app, t.adminToken, 'POST', '/api/visitorText/save', other), 'not_found', 404);
    expectError(
      await call(t.app, t.adminToken, 'GET', `/api/visitorText?scope=opinion&lang=en&rowid=other-op`),
      'not_found',
      404,
    );
    const noRow = { scope: 'opinion', lang: 'en', texts: { name: 'x' } };
    expectError(await call(t.app, t.adminToken, 'POST', '/api/visitorText/save', noRow), 'required', 400);
    const hours = await userWithCodes(t, ['A09_A03_A03']);
    expectError(await call(t.app, hours.token, 'POST', '/api/visitorText/save', body), 'forbidden', 403);
    // Deleting the opinion drops its texts.
    expect((await call(t.app, t.adminToken, 'POST', '/api/opinion/delete', { id })).body.success).toBe(true);
    const left = await t.db.kysely
      .selectFrom('visitor_text')
      .select('scope')
      .where('scope', '=', `opinion:${id}`)
      .execute();
    expect(left).toEqual([]);
    const stored = await t.db.kysely
      .selectFrom('visitor_text')
      .select('scope')
      .where('orgi', '=', 'other')
      .execute();
    expect(stored).toEqual([]);
  });

  it('the not-in-hours notice reaches an English visitor in English, a Chinese one in the base text', async () => {
    const srv = await env.live();
    const admin = (await addUserWithCodes(srv.tdb, ['A09_A03_A03'])).token;
    const appid = await addAccessPoint(srv.tdb);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(
      new Date(srv.clock.now()),
    );
    const sched = await api<{ id: string }>(srv, admin, '/api/workservice/save', {
      name: '全天',
      weekly: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, ranges: [{ start: '00:00', end: '24:00' }] })),
      holidays: [{ date: today, name: '假日' }],
      notinwhmsg: '今天休息，请留言',
    });
    expect(sched.json.success, JSON.stringify(sched.json)).toBe(true);
    const rowid = sched.json.data.id;
    const saved = await api<VisitorTextsDto>(srv, admin, '/api/visitorText/save', {
      scope: 'workingHours',
      rowid,
      lang: 'en',
      texts: { notinwhmsg: 'Closed today, please leave a message' },
    });
    expect(saved.json.data.defaults.notinwhmsg).toBe('今天休息，请留言');
    // The satisfaction code does not open the working hours' texts.
    const sat = (await addUserWithCodes(srv.tdb, ['A09_A03_A04'])).token;
    const refused = await api(srv, sat, `/api/visitorText?scope=workingHours&lang=en&rowid=${rowid}`);
    expect([refused.status, refused.json.key]).toEqual([403, 'forbidden']);

    const notice = async (l: string) => {
      const s = visitorSocket(srv.url, appid, vid(), { l });
      env.sockets.push(s);
      await connected(s);
      const offer = next<LeaveMessageOffer>(s, 'leavemsg');
      const r = await emit(s, 'new');
      expect(r.success).toBe(false);
      return offer;
    };
    expect(await notice('en')).toMatchObject({
      reason: 'notinworktime',
      message: 'Closed today, please leave a message',
    });
    expect((await notice('zh')).message).toBe('今天休息，请留言');
    // Deleting the schedule drops its texts.
    expect((await api(srv, admin, '/api/workservice/delete', { id: rowid })).json.success).toBe(true);
    const left = await srv.tdb.db.kysely
      .selectFrom('visitor_text')
      .select('scope')
      .where('orgi', '=', 'kefu')
      .execute();
    expect(left.map((r) => r.scope)).not.toContain(`workingHours:${rowid}`);
  });
});
