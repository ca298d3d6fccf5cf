import { expect } from 'vitest';
import ExcelJS from 'exceljs';
import type { ExportJobDto, ExportKind } from '@kefu/protocol';
import { exportRunner } from '../src/modules/export/export.service.js';
import { call, type SeededApp } from './factories.js';

/** Starts an export (GET `url`), waits for the job and opens the file it made. */
export async function exported(
  t: SeededApp,
  token: string,
  url: string,
  kind: ExportKind,
): Promise<{ job: ExportJobDto; file: Buffer }> {
  const start = await call<ExportJobDto>(t.app, token, 'GET', url);
  expect(start.body, JSON.stringify(start.body)).toMatchObject({ success: true, data: { kind } });
  await exportRunner(t).idle();
  const job = (await call<ExportJobDto>(t.app, token, 'GET', `/api/export/job?id=${start.body.data.id}`)).body
    .data;
  expect(job.status).toBe('done');
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/export/download?id=${job.id}`,
    headers: { authorization: token },
  });
  expect(res.statusCode).toBe(200);
  return { job, file: res.rawPayload };
}

/** The first sheet's rows as texts (dates as 'date'). */
export async function sheetRows(file: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(file as unknown as ArrayBuffer);
  const out: string[][] = [];
  wb.worksheets[0]!.eachRow((r) =>
    out.push(
      Array.from((r.values as unknown[]).slice(1), (v) => (v instanceof Date ? 'date' : String(v ?? ''))),
    ),
  );
  return out;
}

/** A one-sheet workbook: a header row, then the rows. */
export async function sheet(rows: unknown[][], name = 'Sheet1'): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(name);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
