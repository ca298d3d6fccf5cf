import { describe, expect, it } from 'vitest';
import { perTest } from '../../../../test/factories.js';
import { batched, runFixed, transact } from '../hot-sql.js';

const env = perTest();

const ORGIS = "select orgi from session_config where orgi like 'hs-%' order by orgi";
const INSERT = "insert into session_config (orgi, config, updatetime) values (?, '{}', ?)";

describe('batched fixed statements', () => {
  it('calls of one turn share a commit; a failing call loses only its own writes', async () => {
    const t = await env.seeded();
    const orgis = async () =>
      (await runFixed<{ orgi: string }>(t.db.kysely, ORGIS, [])).rows.map((r) => r.orgi);
    const results = await Promise.allSettled([
      batched(t.db, async (k) => {
        await runFixed(k, INSERT, ['hs-1', 1]);
        return 'one';
      }),
      batched(t.db, async (k) => {
        await runFixed(k, INSERT, ['hs-2', 1]);
        throw new Error('boom');
      }),
      batched(t.db, async (k) => {
        // a constraint failure rolls back this call's earlier statement too
        await runFixed(k, INSERT, ['hs-3', 1]);
        await runFixed(k, INSERT, ['hs-1', 2]);
      }),
      batched(t.db, async (k) => {
        await runFixed(k, INSERT, ['hs-4', 1]);
        // an inner unit that fails is undone alone when the call goes on
        await transact(k, async (u) => {
          await runFixed(u, INSERT, ['hs-5', 1]);
          throw new Error('inner');
        }).catch(() => undefined);
        return (await runFixed(k, 'update session_config set updatetime = ? where orgi = ?', [3, 'hs-4']))
          .affected;
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(results[0]).toMatchObject({ value: 'one' });
    expect(results[3]).toMatchObject({ value: 1 });
    expect(await orgis()).toEqual(['hs-1', 'hs-4']);
    // Kysely still works on the connection afterwards (no transaction left open on it)
    await t.db.kysely.transaction().execute(async (trx) => {
      await runFixed(trx, INSERT, ['hs-6', 1]);
    });
    expect(await orgis()).toEqual(['hs-1', 'hs-4', 'hs-6']);
  });
});
