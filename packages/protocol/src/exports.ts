/**
 * Background exports (.xlsx files built by a job, downloaded when done). See docs/api.md "Exports".
 *
 * A module that exports starts a job with the server's export module and answers the job (ExportJobDto);
 * the console's ExportButton shows its progress by polling GET /api/export/job and offers the download
 * (GET /api/export/download?id=…, with the authorization header). GET /api/agent/history/excelList lists the
 * user's jobs of every kind they may still export.
 */

/** What can be exported, and the permission codes (any one suffices) that allow it. */
export const EXPORT_KIND_CODES = {
  history: ['A01', 'A04'],
  contacts: ['A05'],
  knowledge: ['A09_A05_A02'],
  records: ['A09_A06_A01'],
  /** Quality inspections (/api/quality/expall, expIds): inspectors and assigners. */
  quality: ['A11_A01', 'A11_A02'],
  /** Analysis tables (/api/analyse/export): the call's own code is checked when the job starts. */
  analysis: [
    'A06_A01_A01',
    'A06_A02_A01',
    'A06_A02_A02',
    'A06_A02_A03',
    'A06_A02_A04',
    'A06_A02_A05',
    'A06_A02_A06',
    'A06_A02_A07',
    'A06_A03_A01',
    'A06_A03_A02',
    'A06_A03_A03',
    'A06_A03_A04',
    'A06_A03_A05',
    'A06_A03_A06',
    'A06_A03_A07',
    'A06_A03_A08',
    'A06_A04_A01',
  ],
} as const satisfies Record<string, readonly string[]>;
export type ExportKind = keyof typeof EXPORT_KIND_CODES;
export const EXPORT_KINDS = Object.keys(EXPORT_KIND_CODES) as ExportKind[];
/** Who may call the export list / job / download routes at all: a holder of any kind's code. */
export const EXPORT_ANY_CODES: readonly string[] = [...new Set(Object.values(EXPORT_KIND_CODES).flat())];

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const EXPORT_LIMITS = {
  /** Rows of one sheet before it continues on a next sheet ("Messages (2)"): Excel stops at 1,048,576. */
  sheetRows: 1_000_000,
  /** Files are deleted this long after the job finished. */
  keepMs: 7 * 24 * 3600_000,
  /** A running job not heard of for this long died with its node: shown as failed. */
  staleMs: 120_000,
  /** Jobs of one user queued or running at once (more answers export_busy). */
  perUser: 3,
  /** How often the console polls a running job. */
  pollMs: 1_000,
} as const;

export interface ExportJobDto {
  id: string;
  kind: ExportKind;
  /** The download's file name, extension included. */
  filename: string;
  status: ExportStatus;
  /** Rows written so far (all sheets). */
  rows: number;
  /** Rows expected when known when the job started (all sheets), else null. */
  total: number | null;
  /** File size in bytes once done. */
  size: number | null;
  /** Error key when failed (export_failed, export_interrupted, …). */
  error: string | null;
  createtime: number;
  finishtime: number | null;
}
