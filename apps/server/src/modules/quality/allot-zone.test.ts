import { QUALITY_API as A, type QualityAllotResultDto } from '@kefu/protocol';
import { describe, expect, it } from 'vitest';
import { perTest } from '../../../test/factories.js';
import { forgetZones } from '../analysis/tenant-zone.js';
import { periodKey, periodRange } from './allot.service.js';
import { endedChat, okData, qualityWorld, req } from './quality.fixtures.js';

const env = perTest();
const SH = 'Asia/Shanghai';
const at = (iso: string) => Date.parse(iso);

describe('automatic assignment periods in the tenant’s time zone', () => {
  it('days, weeks and months begin at local midnight (Asia/Shanghai, UTC+8)', () => {
    // Tuesday 1 December 2026, 00:30 in Shanghai; still Monday 30 November in UTC.
    const now = at('2026-11-30T16:30:00Z');
    expect(periodRange({ period: 'day' }, now, SH)).toEqual({ begin: at('2026-11-30T16:00:00Z'), end: now });
    expect(periodRange({ period: 'week' }, now, SH)).toEqual({
      begin: at('2026-11-29T16:00:00Z'),
      end: now,
    });
    expect(periodRange({ period: 'month' }, now, SH)).toEqual({
      begin: at('2026-11-30T16:00:00Z'),
      end: now,
    });
    expect(periodRange({ period: 'day' }, now, 'UTC').begin).toBe(at('2026-11-30T00:00:00Z'));
    // 23:30 and 00:30 local: two days, two months; one UTC day.
    const before = at('2026-11-30T15:30:00Z');
    expect(periodKey(before, 'day', SH)).not.toBe(periodKey(now, 'day', SH));
    expect(periodKey(before, 'month', SH)).toBe('2026-11');
    expect(periodKey(now, 'month', SH)).toBe('2026-12');
    expect(periodKey(before, 'week', SH)).toBe(periodKey(now, 'week', SH));
    // Sunday 23:30 and Monday 00:30 local: two weeks; one UTC Sunday.
    const [sun, mon] = [at('2026-11-29T15:30:00Z'), at('2026-11-29T16:30:00Z')];
    expect(periodKey(sun, 'week', SH)).not.toBe(periodKey(mon, 'week', SH));
    expect(periodKey(sun, 'week', 'UTC')).toBe(periodKey(mon, 'week', 'UTC'));
    expect(periodKey(before, 'day', 'UTC')).toBe(periodKey(now, 'day', 'UTC'));
  });

  it('share per agent per day counts local days of the tenant’s zone', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const zone = async (tz: string) => {
      await t.db.kysely.updateTable('organization').set({ timezone: tz }).where('id', '=', 'kefu').execute();
      forgetZones(t.db);
    };
    // 23:30 on the 23rd, 00:30 and 01:00 on the 24th in Shanghai: all on 23 November in UTC.
    const ends = ['2026-11-23T15:30:00Z', '2026-11-23T16:30:00Z', '2026-11-23T17:00:00Z'].map(at);
    const chats = async (agentno: string) => {
      const ids: string[] = [];
      for (const e of ends) ids.push(await endedChat(t, agentno, { createtime: e - 65_000, endtime: e }));
      return ids;
    };
    const mine = await chats(w.agent.id);
    const theirs = await chats(w.agent2.id);
    const run = (agent: string) =>
      req<QualityAllotResultDto>(t, w.assigner.token, A.allotAutomation, {
        share: 1,
        period: 'day',
        begin: at('2026-11-23T00:00:00Z'),
        end: at('2026-11-24T00:00:00Z'),
        filters: { agents: [agent] },
        inspectors: [w.inspector.id],
      });
    const allotted = async (ids: string[]) =>
      (
        await t.db.kysely
          .selectFrom('quality_inspection')
          .select('agentserviceid')
          .where('agentserviceid', 'in', ids)
          .execute()
      ).length;

    await zone(SH);
    expect(okData(await run(w.agent.id)).allotted).toBe(2);
    expect(await allotted(mine)).toBe(2);
    // One of the two on the 24th (local) was taken, never both.
    expect(await allotted(mine.slice(1))).toBe(1);

    // The same chats of a tenant counting in UTC: one day, one conversation.
    await zone('UTC');
    expect(okData(await run(w.agent2.id)).allotted).toBe(1);
    expect(await allotted(theirs)).toBe(1);
  });
});
