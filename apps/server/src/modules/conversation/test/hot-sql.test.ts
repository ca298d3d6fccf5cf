import { describe, expect, it } from 'vitest';
import { perTest } from '../../../../test/factories.js';
import { runFixed, transact, withConnection } from '../hot-sql.js';

const env = perTest();

const COUNT = "select count(*) as n from session_config where orgi like 'hs-%'";
const INSERT = "insert into session_config (orgi, config, updatetime) values (?, '{}', ?)";

describe('fixed statements on one connection', () => {
  it('a failing transaction leaves nothing behind and the connection usable; a good one commits', async () => {
    const t = await env.seeded();
    const count = async () => Number((await runFixed<{ n: number }>(t.db.kysely, COUNT, [])).rows[0]?.n);
    await expect(
      withConnection(t.db, (k) =>
        transact(k, async (trx) => {
          await runFixed(trx, INSERT, ['hs-1', 1]);
          throw new Error('boom');
        }),
      ),
    ).rejects.toThrow('boom');
    expect(await count()).toBe(0);
    // a constraint failure inside (duplicate key) rolls back the statements before it too
    await expect(
      withConnection(t.db, (k) =>
        transact(k, async (trx) => {
          await runFixed(trx, INSERT, ['hs-2', 1]);
          await runFixed(trx, INSERT, ['hs-2', 2]);
        }),
      ),
    ).rejects.toThrow();
    expect(await count()).toBe(0);
    const n = await withConnection(t.db, async (k) => {
      await transact(k, async (trx) => {
        await runFixed(trx, INSERT, ['hs-3', 1]);
        expect(
          (await runFixed(trx, 'update session_config set updatetime = ? where orgi = ?', [2, 'hs-3']))
            .affected,
        ).toBe(1);
      });
      return (await runFixed<{ n: number }>(k, COUNT, [])).rows[0]?.n;
    });
    expect(Number(n)).toBe(1);
    // Kysely still works on the connection afterwards (no transaction left open on it)
    await t.db.kysely.transaction().execute(async (trx) => {
      await runFixed(trx, INSERT, ['hs-4', 1]);
    });
    expect(await count()).toBe(2);
  });
});
