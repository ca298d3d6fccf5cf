import type { AuditLogDto, ExportJobDto, Page } from '@kefu/protocol';
import { get } from '../../lib/api';
import { exportOptions } from '../../components/exportApi';

export interface RecordFilter {
  q?: string;
  begin?: number;
  end?: number;
}

export const recordsApi = {
  page: (q: RecordFilter & { p: number; ps: number }, signal?: AbortSignal) =>
    get<Page<AuditLogDto>>('/records/list', { ...q }, signal),
  /** A background export of what the filter matches (followed by ExportButton). */
  exportSearch: (f: RecordFilter) => get<ExportJobDto>('/records/export', { ...f, ...exportOptions() }),
};
