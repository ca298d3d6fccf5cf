import type ExcelJS from 'exceljs';
import type { ErrorKey, ImportRowError } from '@kefu/protocol';
import { AppError, badRequest } from '../http/errors.js';
import { loadExcel } from '../excel.js';

/**
 * Reading an uploaded .xlsx for an import: the first sheet, its header row mapped to the import's
 * columns, each later row as the texts a user typed. Imports are all or nothing: rows that fail are
 * collected (rowErrors) and reported together (throwRowErrors) while nothing is stored.
 */
export interface SheetRow<C extends string> {
  /** 1-based row number in the sheet. */
  row: number;
  cells: Partial<Record<C, string>>;
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** A cell as the text a user typed: dates as YYYY-MM-DD, numbers without formatting, rich text joined. */
export function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return dayOf(v);
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('text' in v && typeof v.text === 'string') return v.text;
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    return '';
  }
  return String(v).trim();
}

/**
 * The first sheet's rows keyed by column. `headers` maps a header text (lower case) to its column; a file
 * that is not a workbook, or whose header row lacks a `required` column, is `invalid` (400).
 */
export async function readSheet<C extends string>(
  buf: Buffer,
  o: { headers: ReadonlyMap<string, C>; required: readonly C[]; invalid: ErrorKey; maxRows: number },
): Promise<Array<SheetRow<C>>> {
  const wb = new (await loadExcel()).Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw badRequest(o.invalid);
  }
  const ws = wb.worksheets[0];
  if (!ws) throw badRequest(o.invalid);
  const columns = new Map<number, C>();
  ws.getRow(1).eachCell((cell, col) => {
    const c = o.headers.get(cellText(cell.value).toLowerCase());
    if (c) columns.set(col, c);
  });
  const found = new Set(columns.values());
  if (o.required.some((c) => !found.has(c))) throw badRequest(o.invalid);
  const rows: Array<SheetRow<C>> = [];
  ws.eachRow((r, n) => {
    if (n === 1) return;
    const cells: Partial<Record<C, string>> = {};
    for (const [col, key] of columns) {
      const t = cellText(r.getCell(col).value);
      if (t) cells[key] = t;
    }
    if (Object.keys(cells).length) rows.push({ row: n, cells });
  });
  if (rows.length > o.maxRows) throw badRequest('too_long', { file: 'too_long' });
  return rows;
}

/** Header text (either language, or the column key itself), lower case → column. */
export function headerMap<C extends string>(
  columns: readonly C[],
  headers: Record<'zh' | 'en', Record<C, string>>,
): Map<string, C> {
  return new Map(
    columns.flatMap((c) => [
      [c.toLowerCase(), c] as const,
      [headers.zh[c].toLowerCase(), c] as const,
      [headers.en[c].toLowerCase(), c] as const,
    ]),
  );
}

/** The errors of one failed row: one per field of the AppError, or the whole row (`_`). */
export const rowErrors = (row: number, err: unknown): ImportRowError[] => {
  if (!(err instanceof AppError)) throw err;
  const fields = Object.entries(err.fields ?? {});
  return fields.length
    ? fields.map(([field, key]) => ({ row, field, key }))
    : [{ row, field: '_', key: err.key }];
};

/** Refuses the import when any row failed: `fields` {"<row>.<column>": "<error key>"} of every one. */
export function throwRowErrors(errors: readonly ImportRowError[]): void {
  if (errors.length === 0) return;
  const fields = Object.fromEntries(errors.map((e) => [`${e.row}.${e.field}`, e.key]));
  throw new AppError('import_rows_invalid', 400, fields);
}
