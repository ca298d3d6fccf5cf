import { describe, expect, it, vi } from 'vitest';
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

  it('runs a batch without savepoints; a failing call makes the others run again, each isolated', async () => {
    const t = await env.seeded();
    const orgis = async () =>
      (await runFixed<{ orgi: string }>(t.db.kysely, ORGIS, [])).rows.map((r) => r.orgi);
    const sqlite = t.db.sqlite;
    if (!sqlite) return; // PostgreSQL: every call is its own transaction
    const prepared = vi.spyOn(sqlite, 'prepare');
    let runs = 0;
    const ok = await Promise.all(
      ['hs-a', 'hs-b'].map((orgi) =>
        batched(t.db, async (k) => {
          runs++;
          return (await runFixed(k, INSERT, [orgi, 1])).affected;
        }),
      ),
    );
    expect(ok).toEqual([1, 1]);
    expect(runs).toBe(2);
    expect(prepared.mock.calls.map((c) => c[0])).not.toContain('savepoint job');
    prepared.mockRestore();

    runs = 0;
    const results = await Promise.allSettled([
      batched(t.db, async (k) => {
        runs++;
        await runFixed(k, INSERT, ['hs-c', 1]);
        return runs;
      }),
      batched(t.db, async (k) => {
        await runFixed(k, INSERT, ['hs-d', 1]);
        throw new Error('boom');
      }),
    ]);
    // The first call ran twice: in the optimistic attempt (rolled back) and in the isolated one.
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: 2 });
    expect(results[1]).toMatchObject({ status: 'rejected' });
    expect(await orgis()).toEqual(['hs-a', 'hs-b', 'hs-c']);

    // A batch of one failing call runs once: its failure is the transaction's.
    runs = 0;
    await expect(
      batched(t.db, async (k) => {
        runs++;
        await runFixed(k, INSERT, ['hs-e', 1]);
        throw new Error('alone');
      }),
    ).rejects.toThrow('alone');
    expect(runs).toBe(1);
    expect(await orgis()).toEqual(['hs-a', 'hs-b', 'hs-c']);
  });
});
