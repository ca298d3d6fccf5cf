import { EXPORT_LIMITS, type ExportJobDto, type ExportKind, type ExportStatus } from '@kefu/protocol';
import type { ExportJobRow } from './export.repository.js';

/** A queued or running job whose node stopped beating is shown as failed (its node died with it). */
export function presentJob(r: ExportJobRow, now: number): ExportJobDto {
  const stale =
    (r.status === 'queued' || r.status === 'running') && now - Number(r.updatetime) > EXPORT_LIMITS.staleMs;
  return {
    id: r.id,
    kind: r.kind as ExportKind,
    filename: r.filename,
    status: stale ? 'failed' : (r.status as ExportStatus),
    rows: Number(r.rows),
    total: r.total === null ? null : Number(r.total),
    size: r.size === null ? null : Number(r.size),
    error: stale ? 'export_interrupted' : r.error,
    createtime: Number(r.createtime),
    finishtime: r.finishtime === null ? null : Number(r.finishtime),
  };
}
