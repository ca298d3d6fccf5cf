import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ExportJobDto, Page } from '@kefu/protocol';
import { call, perTest, userWithCodes, type SeededApp } from '../../../test/factories.js';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest } from '../../platform/http/errors.js';
import { exportRunner, localTime, startExport, type ExportCell } from './export.service.js';
import { XlsxFile } from './xlsx-writer.js';

const env = perTest();

const principalOf = async (t: SeededApp, token: string): Promise<Principal> => {
  const { authenticate } = await import('../../platform/auth/guard.js');
  return authenticate(t.db, token);
};

async function* chunks(n: number, size = 1000): AsyncIterable<ExportCell[][]> {
  for (let i = 0; i < n; i += size) {
    const rows: ExportCell[][] = [];
    for (let j = i; j < Math.min(n, i + size); j++) rows.push([`row ${j}`, j, 1_700_000_000_000 + j * 1000]);
    yield rows;
  }
}

const COLUMNS = [{ header: '名称', width: 20 }, { header: 'n' }, { header: 'time', time: true }];

async function download(t: SeededApp, token: string, id: string): Promise<ExcelJS.Workbook> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/export/download?id=${id}`,
    headers: { authorization: token },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  expect(res.headers['content-disposition']).toContain("filename*=UTF-8''");
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return wb;
}

describe('export jobs', () => {
  it('run in the background, list with progress, download only for their owner', async () => {
    const t = await env.seeded();
    const a = await userWithCodes(t, ['A04']);
    const b = await userWithCodes(t, ['A04']);
    const none = await userWithCodes(t, ['A06']);
    const pa = await principalOf(t, a.token);
    const job = await startExport(t, pa, {
      kind: 'history',
      name: '历史对话',
      tz: -480,
      total: 2503,
      sheets: [
        { name: 'One', columns: COLUMNS, rows: () => chunks(2500) },
        { name: 'Two', columns: [{ header: 'x' }], rows: () => chunks(3) },
      ],
    });
    expect(job).toMatchObject({ kind: 'history', total: 2503, size: null });
    expect(job.filename).toMatch(/^历史对话-\d{8}-\d{6}\.xlsx$/);
    await exportRunner(t).idle();

    const list = await call<Page<ExportJobDto>>(t.app, a.token, 'GET', '/api/agent/history/excelList');
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.list[0]).toMatchObject({ id: job.id, status: 'done', rows: 2503, error: null });
    expect(list.body.data.list[0].size).toBeGreaterThan(1000);

    const wb = await download(t, a.token, job.id);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['One', 'Two']);
    const one = wb.getWorksheet('One')!;
    expect(one.rowCount).toBe(2501);
    expect(one.getRow(1).getCell(1).value).toBe('名称');
    expect(one.getRow(2).values).toEqual([undefined, 'row 0', 0, new Date(1_700_000_000_000)]);
    expect(one.getRow(2501).getCell(2).value).toBe(2499);

    // Someone else's job does not exist for them; no export code at all: refused.
    expect((await call(t.app, b.token, 'GET', `/api/export/job?id=${job.id}`)).status).toBe(404);
    expect((await call(t.app, b.token, 'GET', `/api/export/download?id=${job.id}`)).status).toBe(404);
    // A token in the URL is not a login (only /res accepts one).
    const inUrl = await t.app.inject({
      method: 'GET',
      url: `/api/export/download?id=${job.id}&authorization=${a.token}`,
    });
    expect(inUrl.statusCode).toBe(401);
    expect(
      (await call<Page<ExportJobDto>>(t.app, b.token, 'GET', '/api/agent/history/excelList')).body.data.total,
    ).toBe(0);
    expect((await call(t.app, none.token, 'GET', '/api/agent/history/excelList')).status).toBe(403);
    expect((await call(t.app, none.token, 'GET', `/api/export/download?id=${job.id}`)).status).toBe(403);
    expect((await call(t.app, null, 'GET', `/api/export/download?id=${job.id}`)).status).toBe(401);
    expect((await call(t.app, a.token, 'GET', '/api/agent/history/excelList?kind=nope')).status).toBe(400);
    expect((await call(t.app, a.token, 'GET', '/api/export/job')).body.key).toBe('required');

    // Deleting removes the job and its file.
    expect((await call(t.app, a.token, 'POST', '/api/export/delete', { id: job.id })).status).toBe(200);
    expect((await call(t.app, a.token, 'GET', `/api/export/job?id=${job.id}`)).status).toBe(404);
  });

  it('an export of nothing is a valid file with its headers; a failing source fails the job with its key', async () => {
    const t = await env.seeded();
    const a = await userWithCodes(t, ['A05']);
    const pa = await principalOf(t, a.token);
    const empty = await startExport(t, pa, {
      kind: 'contacts',
      name: 'Contacts',
      tz: 0,
      total: 0,
      sheets: [{ name: 'Contacts', columns: COLUMNS, rows: () => chunks(0) }],
    });
    // eslint-disable-next-line require-yield -- a source that fails before its first row
    async function* failing(): AsyncIterable<ExportCell[][]> {
      throw badRequest('search_timeout');
    }
    const failed = await startExport(t, pa, {
      kind: 'contacts',
      name: 'Contacts',
      tz: 0,
      total: null,
      sheets: [{ name: 'Contacts', columns: COLUMNS, rows: failing }],
    });
    await exportRunner(t).idle();
    const wb = await download(t, a.token, empty.id);
    expect(wb.getWorksheet('Contacts')!.rowCount).toBe(1);
    const f = await call<ExportJobDto>(t.app, a.token, 'GET', `/api/export/job?id=${failed.id}`);
    expect(f.body.data).toMatchObject({ status: 'failed', error: 'search_timeout' });
    expect((await call(t.app, a.token, 'GET', `/api/export/download?id=${failed.id}`)).body.key).toBe(
      'export_not_ready',
    );
    // A history job is not listed for a contacts-only user.
    expect(
      (await call<Page<ExportJobDto>>(t.app, a.token, 'GET', '/api/agent/history/excelList?kind=history'))
        .body.data.total,
    ).toBe(0);
  });

  it('refuses more than the per-user number of jobs at once, and shows a job whose node died as interrupted', async () => {
    const t = await env.seeded();
    const a = await userWithCodes(t, ['A04']);
    const pa = await principalOf(t, a.token);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slow(): AsyncIterable<ExportCell[][]> {
      await gate;
      yield [['x']];
    }
    const req = {
      kind: 'history' as const,
      name: 'h',
      tz: 0,
      total: null,
      sheets: [{ name: 's', columns: [{ header: 'x' }], rows: slow }],
    };
    for (let i = 0; i < 3; i++) await startExport(t, pa, req);
    await expect(startExport(t, pa, req)).rejects.toMatchObject({ key: 'export_busy' });
    release();
    await exportRunner(t).idle();

    const dead = await startExport(t, pa, req);
    await exportRunner(t).cancel(dead.id);
    await exportRunner(t).idle();
    await t.db.kysely
      .updateTable('export_job')
      .set({ status: 'running', updatetime: Date.now() - 600_000 })
      .where('id', '=', dead.id)
      .execute();
    const d = await call<ExportJobDto>(t.app, a.token, 'GET', `/api/export/job?id=${dead.id}`);
    expect(d.body.data).toMatchObject({ status: 'failed', error: 'export_interrupted' });
  });

  it('localTime shifts epoch ms to the reader’s wall clock', () => {
    expect(localTime(0, -480)).toBe(8 * 3_600_000);
    expect(localTime(null, -480)).toBeNull();
  });
});

describe('XlsxFile', () => {
  it('continues a sheet past its row limit on a next sheet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kefu-xlsx-'));
    try {
      const file = join(dir, 'x.xlsx');
      const x = new XlsxFile(file, 3);
      await x.sheet('Messages', [{ header: 'n' }]);
      await x.rows([[1], [2], [3], [4]]);
      await x.rows([[5]]);
      expect(await x.end()).toBeGreaterThan(0);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(file);
      expect(wb.worksheets.map((w) => [w.name, w.rowCount])).toEqual([
        ['Messages', 4],
        ['Messages (2)', 3],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
