import { join } from 'node:path';
import { existsSync, rmSync } from 'node:fs';
import {
  EXPORT_KIND_CODES,
  EXPORT_KINDS,
  hasPermission,
  type ExportJobDto,
  type ExportKind,
  type Page,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import type { Principal } from '../../platform/auth/principal.js';
import { notFound, badRequest } from '../../platform/http/errors.js';
import { offsetOf, pageOf, type Paging } from '../../platform/http/paging.js';
import * as repo from './export.repository.js';
import { presentJob } from './export.presenter.js';
import { exportRunner } from './export.service.js';

type Ctx = Pick<AppContext, 'db' | 'config'>;

/** The kinds the user may export now (a job stays hidden once its code was taken away). */
const allowedKinds = (p: Principal): ExportKind[] =>
  EXPORT_KINDS.filter((k) => hasPermission(p.usertype, p.auth, [...EXPORT_KIND_CODES[k]]));

/** The user's own job of a kind they may still export. */
async function ownJob(ctx: Ctx, p: Principal, id: string): Promise<repo.ExportJobRow> {
  const j = await repo.findJob(ctx.db.kysely, id);
  if (!j || j.userid !== p.id || !allowedKinds(p).includes(j.kind as ExportKind))
    throw notFound('export_not_found');
  return j;
}

export async function list(
  ctx: Ctx,
  p: Principal,
  pg: Paging,
  kind?: ExportKind,
): Promise<Page<ExportJobDto>> {
  const kinds = allowedKinds(p).filter((k) => !kind || k === kind);
  const { rows, total } = await repo.userJobs(ctx.db.kysely, p.id, kinds, pg.ps, offsetOf(pg));
  const now = Date.now();
  return pageOf(
    rows.map((r) => presentJob(r, now)),
    total,
    pg,
  );
}

export async function job(ctx: Ctx, p: Principal, id: string): Promise<ExportJobDto> {
  return presentJob(await ownJob(ctx, p, id), Date.now());
}

/** The finished file of the user's job. */
export async function download(
  ctx: Ctx,
  p: Principal,
  id: string,
): Promise<{ path: string; filename: string }> {
  const j = await ownJob(ctx, p, id);
  if (j.status !== 'done') throw badRequest('export_not_ready');
  const path = join(exportRunner(ctx).dir, j.path);
  if (!existsSync(path)) throw notFound('export_not_found');
  return { path, filename: j.filename };
}

/** Deletes the job and its file (a job still running on this node is stopped first). */
export async function remove(ctx: Ctx, p: Principal, id: string): Promise<void> {
  const j = await ownJob(ctx, p, id);
  const runner = exportRunner(ctx);
  await runner.cancel(j.id);
  await repo.deleteJobs(ctx.db.kysely, [j.id]);
  if (j.path) rmSync(join(runner.dir, j.path), { force: true });
}
