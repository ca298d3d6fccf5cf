import { describe, expect, it } from 'vitest';
import {
  localParts,
  type LeaveMessageOffer,
  type VisitorNewResult,
  type WorkScheduleDto,
} from '@kefu/protocol';
import { call, count, expectError, userWithCodes, perTest } from '../../../test/factories.js';
import { addAccessPoint, call as emit, next, visitorReady, type LiveServer } from '../../../test/live.js';
import { issueToken } from '../../platform/auth/tokens.js';
import { insertUser } from '../../../test/harness.js';
import { workTimeDecision } from './workservice.service.js';

const env = perTest();

const nine2six = [{ start: '09:00', end: '18:00' }];
const weekdays = [1, 2, 3, 4, 5].map((day) => ({ day, ranges: nine2six }));
const body = (extra: Record<string, unknown> = {}) => ({
  name: 'Office hours',
  timezone: 'Asia/Shanghai',
  weekly: weekdays,
  holidays: [{ date: '2025-10-01', name: '国庆' }],
  workdays: [{ date: '2025-09-28', ranges: [{ start: '10:00', end: '16:00' }] }],
  ...extra,
});
/** 2025-09-29 is a Monday; times are Asia/Shanghai (UTC+8). */
const at = (iso: string) => Date.parse(`${iso}+08:00`);

describe('working hours admin', () => {
  it('save, list on both prefixes, detail, update, switch, delete', async () => {
    const t = await env.seeded();
    const organ = (await t.db.kysely.selectFrom('organ').select('id').executeTakeFirstOrThrow()).id;
    const org = await call<WorkScheduleDto>(t.app, t.adminToken, 'POST', '/api/workservice/save', body());
    expect(org.body.data).toMatchObject({
      organ: null,
      enabled: true,
      timezone: 'Asia/Shanghai',
      weekly: weekdays,
    });
    const dept = await call<WorkScheduleDto>(t.app, t.adminToken, 'POST', '/api/organ/workservice/save', {
      ...body({ name: 'Sales' }),
      organ,
    });
    expect(dept.body.data).toMatchObject({ organ, organname: expect.any(String) });
    const all = await call<WorkScheduleDto[]>(t.app, t.adminToken, 'GET', '/api/workservice/list');
    expect(all.body.data).toHaveLength(2);
    const depts = await call<WorkScheduleDto[]>(t.app, t.adminToken, 'GET', '/api/organ/workservice/list');
    expect(depts.body.data.map((w) => w.id)).toEqual([dept.body.data.id]);
    const d = await call<WorkScheduleDto>(
      t.app,
      t.adminToken,
      'GET',
      `/api/workservice/detail?id=${org.body.data.id}`,
    );
    expect(d.body.data.holidays).toEqual([{ date: '2025-10-01', name: '国庆' }]);
    const upd = await call<WorkScheduleDto>(t.app, t.adminToken, 'POST', '/api/workservice/update', {
      ...body({ name: 'Late', weekly: [{ day: 6, ranges: [{ start: '12:00', end: '24:00' }] }] }),
      id: org.body.data.id,
    });
    expect(upd.body.data).toMatchObject({ name: 'Late', weekly: [{ day: 6 }] });
    const sw = await call<WorkScheduleDto>(t.app, t.adminToken, 'POST', '/api/workservice/switch', {
      id: org.body.data.id,
      enabled: false,
    });
    expect(sw.body.data.enabled).toBe(false);
    await call(t.app, t.adminToken, 'POST', '/api/organ/workservice/delete', { id: dept.body.data.id });
    expect(await count(t.db, 'work_service')).toBe(1);
    expectError(
      await call(t.app, t.adminToken, 'GET', `/api/workservice/detail?id=${dept.body.data.id}`),
      'not_found',
      404,
    );
  });

  it('validation keys; nothing stored on bad input; one schedule per department; code A09_A03_A03', async () => {
    const t = await env.seeded();
    await call(t.app, t.adminToken, 'POST', '/api/workservice/save', body());
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ weekly: [{ day: 1, ranges: [{ start: '18:00', end: '09:00' }] }] }, 'time_start_after_end'],
      [{ weekly: [{ day: 1, ranges: [{ start: '09:00', end: '09:00' }] }] }, 'time_start_after_end'],
      [{ weekly: [{ day: 1, ranges: [{ start: '9:00', end: '18:00' }] }] }, 'time_range_invalid'],
      [{ weekly: [{ day: 1, ranges: [{ start: '09:00', end: '25:00' }] }] }, 'time_range_invalid'],
      [
        {
          weekly: [
            {
              day: 1,
              ranges: [
                { start: '09:00', end: '12:00' },
                { start: '11:00', end: '13:00' },
              ],
            },
          ],
        },
        'time_range_invalid',
      ],
      [{ weekly: [{ day: 1, ranges: [] }], workdays: [] }, 'time_range_invalid'],
      [{ weekly: [{ day: 7, ranges: nine2six }] }, 'invalid_field'],
      [
        {
          weekly: [
            { day: 1, ranges: nine2six },
            { day: 1, ranges: nine2six },
          ],
        },
        'invalid_field',
      ],
      [{ holidays: [{ date: '2025-13-01', name: 'x' }] }, 'invalid_field'],
      [{ timezone: 'Mars/Base' }, 'invalid_field'],
      [{ name: '' }, 'required'],
      [{ organ: 'nope' }, 'invalid_field'],
      [{}, 'group_bound'],
    ];
    for (const [extra, key] of cases) {
      expectError(
        await call(
          t.app,
          t.adminToken,
          'POST',
          '/api/workservice/save',
          body({ ...extra, name: extra.name ?? 'N' }),
        ),
        key,
      );
    }
    expect(await count(t.db, 'work_service')).toBe(1);
    const agent = await userWithCodes(t, ['A01']);
    expect((await call(t.app, agent.token, 'GET', '/api/workservice/list')).status).toBe(403);
  });
});

describe('working-hours decisions (fixed clock)', () => {
  it('weekday ranges, holidays, special working days, department over organisation, switch off', async () => {
    const t = await env.seeded();
    const organ = (await t.db.kysely.selectFrom('organ').select('id').executeTakeFirstOrThrow()).id;
    const decide = async (iso: string, o: string | null = null) =>
      (await workTimeDecision(t.db, 'kefu', o, at(iso))).open;
    expect(await decide('2025-09-29T03:00:00')).toBe(true); // no schedule: always open
    const org = (
      await call<WorkScheduleDto>(
        t.app,
        t.adminToken,
        'POST',
        '/api/workservice/save',
        body({ notinwhmsg: '下班了' }),
      )
    ).body.data;
    expect(await decide('2025-09-29T09:00:00')).toBe(true); // Monday, start inclusive
    expect(await decide('2025-09-29T17:59:00')).toBe(true);
    expect(await decide('2025-09-29T18:00:00')).toBe(false); // end exclusive
    expect(await decide('2025-09-29T08:59:00')).toBe(false);
    expect(await decide('2025-09-27T10:00:00')).toBe(false); // Saturday
    expect(await decide('2025-10-01T10:00:00')).toBe(false); // holiday (Wednesday)
    expect(await decide('2025-09-28T11:00:00')).toBe(true); // Sunday made a working day
    expect(await decide('2025-09-28T09:30:00')).toBe(false); // … with its own hours
    expect(await workTimeDecision(t.db, 'kefu', organ, at('2025-09-27T10:00:00'))).toEqual({
      open: false,
      message: '下班了',
      schedule: expect.any(String),
    });
    // A department's own schedule overrides the organisation's.
    await call(t.app, t.adminToken, 'POST', '/api/organ/workservice/save', {
      ...body({ name: 'Weekend team', weekly: [{ day: 6, ranges: nine2six }], holidays: [], workdays: [] }),
      organ,
    });
    expect(await decide('2025-09-27T10:00:00', organ)).toBe(true);
    expect(await decide('2025-09-29T10:00:00', organ)).toBe(false);
    await call(t.app, t.adminToken, 'POST', '/api/workservice/switch', { id: org.id, enabled: false });
    expect(await decide('2025-09-27T10:00:00')).toBe(true);
  });
});

describe('engine: outside working hours', () => {
  it('the visitor gets the not-in-hours text and the leave-message offer; nothing is queued', async () => {
    const srv = await env.live();
    const appid = await addAccessPoint(srv.tdb);
    const now = srv.clock.now();
    const today = localParts(now, 'Asia/Shanghai').date;
    const admin = await adminToken(srv);
    const saved = await srv.app.inject({
      method: 'POST',
      url: '/api/workservice/save',
      headers: { authorization: admin },
      payload: body({
        holidays: [{ date: today, name: 'closed today' }],
        workdays: [],
        notinwhmsg: '非工作时间',
      }),
    });
    expect(saved.json().success, saved.body).toBe(true);
    const v = await visitorReady(srv.url, appid);
    env.sockets.push(v.s);
    const offer = next<LeaveMessageOffer>(v.s, 'leavemsg');
    const r = await emit<VisitorNewResult>(v.s, 'new');
    expect(r.success).toBe(false);
    if (!r.success) expect(r.key).toBe('not_in_work_time');
    expect(await offer).toEqual({ reason: 'notinworktime', message: '非工作时间' });
    expect(await count(srv.tdb.db, 'agent_service')).toBe(0);

    const id = (saved.json() as { data: { id: string } }).data.id;
    await srv.app.inject({
      method: 'POST',
      url: '/api/workservice/switch',
      headers: { authorization: admin },
      payload: { id, enabled: false },
    });
    const again = await emit<VisitorNewResult>(v.s, 'new');
    expect(again.success).toBe(true);
    expect(await count(srv.tdb.db, 'agent_service')).toBe(1);
  });
});

async function adminToken(s: LiveServer): Promise<string> {
  const u = await insertUser(s.tdb.db, { usertype: '0' });
  return issueToken(s.tdb.db.kysely, u.id, 'kefu', 3_600_000);
}
