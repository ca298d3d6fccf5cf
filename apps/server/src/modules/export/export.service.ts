/**
 * Background exports. A module exports by calling startExport with its sheets; the job waits in this
 * node's queue (one export runs at a time per node), writes the .xlsx on a thread of its own
 * (xlsx-writer.ts) and records its progress, and the user downloads the file from GET /api/export/download
 * when it is done. Usage, e.g. in a module's routes:
 *
 *   const job = await startExport(ctx, principal(req), {
 *     kind: 'contacts',                         // EXPORT_KIND_CODES says who may list/download it
 *     name: lang === 'en' ? 'Contacts' : '联系人', // file name; the date is appended
 *     tz: q.tz,                                 // the reader's offset (exportOptions in @kefu/protocol)
 *     total,                                    // rows expected (progress), or null
 *     sheets: [{ name: 'Contacts', columns: [{ header: 'Name', width: 20 }, { header: 'Created', time: true }],
 *                rows: () => chunks() }],       // async iterable of row arrays, read only when the job runs
 *   });
 *   return ok(job);                             // ExportJobDto: the console's ExportButton follows it
 *
 * Time cells are epoch ms; pass them through localTime(ms, tz) so the sheet shows the reader's wall time.
 * Throwing an AppError from `rows` fails the job with that error key.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CODES, EXPORT_LIMITS, type ExportJobDto, type ExportKind } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError } from '../../platform/http/errors.js';
import { newTimeId } from '../../platform/ids.js';
import { XlsxFile, type ExportCell, type ExportColumn } from './xlsx-writer.js';
import * as repo from './export.repository.js';
import { presentJob } from './export.presenter.js';

export type { ExportCell, ExportColumn } from './xlsx-writer.js';

export interface ExportSheet {
  name: string;
  columns: readonly ExportColumn[];
  /** Called when the job runs (it may have waited in the queue): chunks of rows, in order. */
  rows: () => AsyncIterable<ExportCell[][]>;
}

export interface ExportRequest {
  kind: ExportKind;
  /** File name without extension; the reader's date is appended. */
  name: string;
  /** The reader's time-zone offset in minutes, as Date.getTimezoneOffset() (exportOptions). */
  tz: number;
  /** Rows expected over all sheets, for the progress bar; null when unknown. */
  total: number | null;
  sheets: readonly ExportSheet[];
}

/** Epoch ms as the reader's wall-clock time, for a `time` column (the sheet stores no zone). */
export const localTime = (ms: number | null | undefined, tz: number): number | null =>
  ms === null || ms === undefined ? null : Number(ms) - tz * 60_000;

const HEARTBEAT_MS = 2_000;
const SWEEP_MS = 3_600_000;

interface Job {
  id: string;
  req: ExportRequest;
  rows: number;
  cancelled: boolean;
  file?: XlsxFile;
}

const fileName = (name: string, tz: number, now: number): string => {
  const d = new Date(localTime(now, tz) ?? now).toISOString();
  const safe = name.replace(/[\\/:*?"<>|\r\n]+/g, '_').slice(0, 60);
  return `${safe}-${d.slice(0, 10).replace(/-/g, '')}-${d.slice(11, 19).replace(/:/g, '')}.xlsx`;
};

/** One node's export queue; see the module comment. */
export class ExportRunner {
  private readonly queue: Job[] = [];
  private current: Job | null = null;
  private stopped = false;
  private readonly timers: Array<ReturnType<typeof setInterval>> = [];

  constructor(
    private readonly db: Db,
    readonly dir: string,
  ) {
    this.timers.push(setInterval(() => void this.heartbeat(), HEARTBEAT_MS).unref());
    this.timers.push(setInterval(() => void this.sweep(), SWEEP_MS).unref());
    void this.sweep();
  }

  async start(p: Principal, req: ExportRequest): Promise<ExportJobDto> {
    const k = this.db.kysely;
    const now = Date.now();
    if ((await repo.activeCount(k, p.id, now - EXPORT_LIMITS.staleMs)) >= EXPORT_LIMITS.perUser)
      throw new AppError('export_busy', CODES.tooManyRequests);
    const id = newTimeId(now);
    await repo.insertJob(k, {
      id,
      orgi: p.orgi,
      userid: p.id,
      kind: req.kind,
      filename: fileName(req.name, req.tz, now),
      status: 'queued',
      rows: 0,
      total: req.total,
      size: null,
      path: '',
      error: null,
      createtime: now,
      updatetime: now,
      finishtime: null,
    });
    this.queue.push({ id, req, rows: 0, cancelled: false });
    this.next();
    return presentJob((await repo.findJob(k, id))!, now);
  }

  /** Stops a job of this node (queued or running); its row is the caller's to delete. */
  async cancel(id: string): Promise<void> {
    const i = this.queue.findIndex((j) => j.id === id);
    if (i >= 0) this.queue.splice(i, 1);
    if (this.current?.id === id) {
      this.current.cancelled = true;
      await this.current.file?.abort();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.queue.length = 0;
    await this.current?.file?.abort();
  }

  /** Waits until the queue is empty (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.current || this.queue.length) await new Promise((r) => setTimeout(r, 20));
  }

  private next(): void {
    if (this.current || this.stopped) return;
    const job = this.queue.shift();
    if (!job) return;
    this.current = job;
    void this.run(job).finally(() => {
      this.current = null;
      this.next();
    });
  }

  private async run(job: Job): Promise<void> {
    const k = this.db.kysely;
    mkdirSync(this.dir, { recursive: true });
    // Stored relative to the exports directory, so every node sharing the data directory finds it.
    const name = `${job.id}.xlsx`;
    const path = join(this.dir, name);
    try {
      await repo.updateJob(k, job.id, { status: 'running', updatetime: Date.now() });
      const file = (job.file = new XlsxFile(path));
      for (const s of job.req.sheets) {
        await file.sheet(s.name, s.columns);
        for await (const chunk of s.rows()) {
          if (job.cancelled || this.stopped) throw new Error('export cancelled');
          await file.rows(chunk);
          job.rows += chunk.length;
        }
      }
      const size = await file.end();
      const now = Date.now();
      await repo.updateJob(k, job.id, {
        status: 'done',
        rows: job.rows,
        size,
        path: name,
        updatetime: now,
        finishtime: now,
      });
    } catch (err) {
      await job.file?.abort();
      rmSync(path, { force: true });
      if (job.cancelled) return;
      if (!(err instanceof AppError)) console.error(`export ${job.id} failed`, err);
      const now = Date.now();
      await repo
        .updateJob(k, job.id, {
          status: 'failed',
          rows: job.rows,
          error: err instanceof AppError ? err.key : 'export_failed',
          updatetime: now,
          finishtime: now,
        })
        .catch(() => undefined);
    }
  }

  private async heartbeat(): Promise<void> {
    const now = Date.now();
    const k = this.db.kysely;
    try {
      await repo.touchJobs(
        k,
        this.queue.map((j) => j.id),
        now,
      );
      const c = this.current;
      if (c && !c.cancelled) await repo.updateJob(k, c.id, { rows: c.rows, updatetime: now });
    } catch {
      // The database is closing or away: the next beat tries again.
    }
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    try {
      const old = await repo.expiredJobs(
        this.db.kysely,
        now - EXPORT_LIMITS.keepMs,
        now - EXPORT_LIMITS.keepMs,
      );
      for (const j of old) if (j.path) rmSync(join(this.dir, j.path), { force: true });
      await repo.deleteJobs(
        this.db.kysely,
        old.map((j) => j.id),
      );
    } catch {
      // Next sweep.
    }
  }
}

const runners = new WeakMap<Db, ExportRunner>();

/** The node's export runner for this database (created on first use). */
export function exportRunner(ctx: Pick<AppContext, 'db' | 'config'>): ExportRunner {
  let r = runners.get(ctx.db);
  if (!r) runners.set(ctx.db, (r = new ExportRunner(ctx.db, join(ctx.config.dataDir, 'exports'))));
  return r;
}

export const startExport = (
  ctx: Pick<AppContext, 'db' | 'config'>,
  p: Principal,
  req: ExportRequest,
): Promise<ExportJobDto> => exportRunner(ctx).start(p, req);
