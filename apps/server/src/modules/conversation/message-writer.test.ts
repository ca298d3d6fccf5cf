import { describe, expect, it } from 'vitest';
import type { Db } from '../../platform/db/database.js';
import { GroupCommit, type Outcome } from './message-writer.js';

interface Job {
  key: string;
  n: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A writer with only a set-wise path (`batch`); the database is never touched. */
const setWiseWriter = (batch: (jobs: Job[]) => Promise<Array<Outcome<number>>>, maxInFlight: number) =>
  new GroupCommit<Job, number>(
    {} as Db,
    () => Promise.reject(new Error('job by job is not expected here')),
    (j) => j.key,
    256,
    batch,
    maxInFlight,
  );

/** A writer whose set-wise path records what is in flight; the database is never touched. */
function recordingWriter(maxInFlight: number) {
  const inFlight = new Set<string>();
  const log = { sharedKey: 0, committed: [] as Job[] };
  const batch = async (jobs: Job[]): Promise<Array<Outcome<number>>> => {
    const keys = new Set(jobs.map((j) => j.key));
    for (const k of keys) {
      if (inFlight.has(k)) log.sharedKey++;
      inFlight.add(k);
    }
    await sleep(5);
    for (const k of keys) inFlight.delete(k);
    log.committed.push(...jobs);
    return jobs.map((j) => ({ ok: true, value: j.n }));
  };
  const w = setWiseWriter(batch, maxInFlight);
  return { w, log };
}

/** A writer whose batches wait for the test to release them, recording what each one carried. */
function gatedWriter(maxInFlight: number) {
  const batches: Array<{ keys: string[]; release: () => void }> = [];
  const inFlight = new Set<string>();
  let sharedKey = 0;
  const batch = async (jobs: Job[]): Promise<Array<Outcome<number>>> => {
    const keys = [...new Set(jobs.map((j) => j.key))];
    for (const k of keys) {
      if (inFlight.has(k)) sharedKey++;
      inFlight.add(k);
    }
    await new Promise<void>((release) => batches.push({ keys, release }));
    for (const k of keys) inFlight.delete(k);
    return jobs.map((j) => ({ ok: true, value: j.n }));
  };
  const w = setWiseWriter(batch, maxInFlight);
  return { w, batches, shared: () => sharedKey };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 500 && !cond(); i++) await sleep(2);
  expect(cond()).toBe(true);
};

describe('GroupCommit with batches in flight', () => {
  it('starts a batch of other keys while one is in flight; a busy key waits for the next batch, in order', async () => {
    const { w, batches, shared } = gatedWriter(2);
    const done: string[] = [];
    const a1 = w.submit({ key: 'a', n: 1 }).then(() => done.push('a1'));
    await until(() => batches.length === 1);
    const a2 = w.submit({ key: 'a', n: 2 }).then(() => done.push('a2'));
    const b1 = w.submit({ key: 'b', n: 1 }).then(() => done.push('b1'));
    // b is free: a second batch starts while the first is still in flight; a2 is held back.
    await until(() => batches.length === 2);
    expect(batches[1]!.keys).toEqual(['b']);
    batches[1]!.release();
    await b1;
    expect(done).toEqual(['b1']);
    batches[0]!.release();
    await a1;
    await until(() => batches.length === 3);
    expect(batches[2]!.keys).toEqual(['a']);
    batches[2]!.release();
    await a2;
    expect(done).toEqual(['b1', 'a1', 'a2']);
    expect(shared()).toBe(0);
  });

  it('with one in flight, the next batch waits even for other keys', async () => {
    const { w, batches } = gatedWriter(1);
    const a1 = w.submit({ key: 'a', n: 1 });
    await until(() => batches.length === 1);
    const b1 = w.submit({ key: 'b', n: 1 });
    await sleep(20);
    expect(batches.length).toBe(1);
    batches[0]!.release();
    await a1;
    await until(() => batches.length === 2);
    batches[1]!.release();
    expect(await b1).toBe(1);
  });

  it('keeps every key in order under a stream of sends', async () => {
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
    for (const key of ['a', 'b', 'c', 'd', 'e']) {
      const order = log.committed.filter((j) => j.key === key).map((j) => j.n);
      expect(order).toEqual([...order].sort((x, y) => x - y));
    }
  });
});
