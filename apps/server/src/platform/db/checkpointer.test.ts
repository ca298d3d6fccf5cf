import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database.js';
import { WRITER_AUTOCHECKPOINT_PAGES } from './checkpointer.js';

const PAGE = 4096;
let db: Db | undefined;
let dir = '';
afterEach(async () => {
  await db?.close();
  db = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SQLite checkpointer thread', () => {
  it('keeps the WAL small while the writer never checkpoints itself', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kefu-ckpt-'));
    db = openDatabase({ dataDir: dir, databaseUrl: undefined });
    const raw = db.sqlite!;
    expect(raw.pragma('wal_autocheckpoint', { simple: true })).toBe(WRITER_AUTOCHECKPOINT_PAGES);
    raw.exec('create table blob_rows (id integer primary key, body blob not null)');
    const insert = raw.prepare('insert into blob_rows (body) values (?)');
    const body = Buffer.alloc(PAGE * 5, 7);
    // 40 transactions × 10 rows × ~5 pages ≈ 2,000+ pages written, far below the writer's own threshold.
    for (let t = 0; t < 40; t++) {
      raw.transaction(() => {
        for (let i = 0; i < 10; i++) insert.run(body);
      })();
      // Room for the thread's PASSIVE checkpoint between commits even when two test files share 2 cores
      // (15 ms flaked under load); the writer's own threshold is still never reached.
      await sleep(50);
    }
    await sleep(500);
    raw.prepare('insert into blob_rows (body) values (?)').run(Buffer.alloc(10));
    const walPages = statSync(join(dir, 'kefu.sqlite-wal')).size / PAGE;
    // Without checkpoints the WAL would hold every page written (2,000+); restarted after each, it stays small.
    expect(walPages).toBeLessThan(700);
    expect(raw.prepare('select count(*) as n from blob_rows').get()).toEqual({ n: 401 });
  });

  it('stops with the database', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kefu-ckpt-'));
    const d = openDatabase({ dataDir: dir, databaseUrl: undefined });
    await d.close();
    // Closing twice is harmless (the app and the tests may both close).
    await expect(d.close()).resolves.toBeUndefined();
  });
});
