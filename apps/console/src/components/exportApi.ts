import type { ExportJobDto, ExportKind, Page } from '@kefu/protocol';
import { get, post } from '../lib/api';
import { downloadFile } from '../lib/download';

/** The export jobs of the signed-in user (server module `export`). */
export const exportApi = {
  list: (q: { p: number; ps: number; kind?: ExportKind }, signal?: AbortSignal) =>
    get<Page<ExportJobDto>>('/agent/history/excelList', q, signal),
  job: (id: string, signal?: AbortSignal) => get<ExportJobDto>('/export/job', { id }, signal),
  remove: (id: string) => post<null>('/export/delete', { id }),
  download: (job: Pick<ExportJobDto, 'id' | 'filename'>) =>
    downloadFile('/export/download', { id: job.id }, job.filename),
};

/** What every export call sends besides its filter: the reader's time zone (the sheet shows local times). */
export const exportOptions = (): { tz: number } => ({ tz: new Date().getTimezoneOffset() });

/** Percent done, or null when the total was not known. */
export const progressOf = (j: Pick<ExportJobDto, 'rows' | 'total' | 'status'>): number | null => {
  if (j.status === 'done') return 100;
  if (!j.total) return j.total === 0 ? 0 : null;
  return Math.min(99, Math.floor((j.rows / j.total) * 100));
};
