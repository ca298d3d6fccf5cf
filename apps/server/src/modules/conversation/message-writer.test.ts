import { describe, expect, it } from 'vitest';
import type { Db } from '../../platform/db/database.js';
import { GroupCommit, type Outcome } from './message-writer.js';

interface Job {
  key: string;
  n: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A writer whose set-wise path records what is in flight; the database is never touched. */
function recordingWriter(maxInFlight: number) {
  const inFlight = new Set<string>();
  const log = { overlaps: 0, sharedKey: 0, committed: [] as Job[], batches: 0 };
  const batch = async (jobs: Job[]): Promise<Array<Outcome<number>>> => {
    const keys = new Set(jobs.map((j) => j.key));
    if (inFlight.size > 0) log.overlaps++;
    for (const k of keys) {
      if (inFlight.has(k)) log.sharedKey++;
      inFlight.add(k);
    }
    log.batches++;
    await sleep(5);
    for (const k of keys) inFlight.delete(k);
    log.committed.push(...jobs);
    return jobs.map((j) => ({ ok: true, value: j.n }));
  };
  const w = new GroupCommit<Job, number>(
    {} as Db,
    () => Promise.reject(new Error('job by job is not expected here')),
    (j) => j.key,
    256,
    batch,
    maxInFlight,
  );
  return { w, log };
}

describe('GroupCommit with batches in flight', () => {
  it('overlaps batches of different keys, never two batches of one key, and keeps each key in order', async () => {
    const { w, log } = recordingWriter(2);
    const results: Array<Promise<number>> = [];
    const sent: Job[] = [];
    for (let round = 0; round < 20; round++) {
      for (const key of ['a', 'b', 'c', round % 2 ? 'd' : 'e']) {
        const job = { key, n: round };
        sent.push(job);
        results.push(w.submit(job));
      }
      await sleep(round % 3);
    }
    expect(await Promise.all(results)).toEqual(sent.map((j) => j.n));
    expect(log.sharedKey).toBe(0);
    expect(log.overlaps).toBeGreaterThan(0);
    for (const key of ['a', 'b', 'c', 'd', 'e']) {
      const order = log.committed.filter((j) => j.key === key).map((j) => j.n);
      expect(order).toEqual([...order].sort((x, y) => x - y));
    }
  });

  it('with one in flight, batches follow each other', async () => {
    const { w, log } = recordingWriter(1);
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        await sleep(i % 4);
        return w.submit({ key: `k${i % 3}`, n: i });
      }),
    );
    expect(log.overlaps).toBe(0);
    expect(log.batches).toBeGreaterThan(1);
  });
});
