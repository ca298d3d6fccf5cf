import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { EXPORT_LIMITS } from '@kefu/protocol';
import { LOW_PRIORITY_THREAD } from '../../platform/threads.js';

/** A cell as it crosses to the writer thread: plain values only (cheap to clone). */
export type ExportCell = string | number | null;

export interface ExportColumn {
  header: string;
  /** Characters; exceljs' default otherwise. */
  width?: number;
  /** The cell holds epoch ms already shifted to the reader's time zone: written as a date-time. */
  time?: boolean;
}

/**
 * The .xlsx is written on a thread of its own with exceljs' streaming writer: building the sheet XML and
 * compressing it is most of an export's CPU, and on the event loop it would delay live chat (the thread runs
 * at a low priority, threads.ts). The thread waits for the zip to take each batch before acknowledging it:
 * exceljs' sheet stream ignores back-pressure, so without that wait the uncompressed XML piled up in memory
 * (≈ 420 B per row, 420 MB at 1M rows; with it a 1M-row file writes in ≈ 50 MB). A sheet continues on a next sheet
 * ("Name (2)") past EXPORT_LIMITS.sheetRows (Excel's limit is 1,048,576 rows).
 */
const WORKER = `${LOW_PRIORITY_THREAD}
const { workerData, parentPort } = require('node:worker_threads');
const { once } = require('node:events');
const fs = require('node:fs');
const ExcelJS = require(workerData.exceljs);
const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: workerData.file, useStyles: true, useSharedStrings: false });
let ws = null, spec = null, part = 1, inSheet = 0;
const open = (name) => {
  ws = wb.addWorksheet(name.slice(0, 31));
  ws.columns = spec.columns.map((c) => ({ header: c.header, width: c.width, style: c.time ? { numFmt: 'yyyy-mm-dd hh:mm:ss' } : undefined }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  inSheet = 0;
};
const drained = async () => {
  // The zip entry's input stream (readable-stream 2: no writableNeedDrain); wait while it holds > 1 MB.
  const p = ws && ws.stream && ws.stream.pipes && ws.stream.pipes[0];
  const st = p && p._writableState;
  if (st && st.length > 1048576) await once(p, 'drain');
};
const times = () => spec.columns.map((c, i) => (c.time ? i : -1)).filter((i) => i >= 0);
let timeCols = [];
const handle = async (m) => {
  if (m.t === 'sheet') {
    if (ws) ws.commit();
    spec = m; part = 1; timeCols = times(); open(m.name);
  } else if (m.t === 'rows') {
    for (const r of m.rows) {
      if (inSheet >= workerData.sheetRows) { ws.commit(); part++; open(spec.name.slice(0, 26) + ' (' + part + ')'); }
      for (const i of timeCols) if (typeof r[i] === 'number') r[i] = new Date(r[i]);
      ws.addRow(r).commit();
      inSheet++;
    }
    await drained();
  } else if (m.t === 'end') {
    if (ws) ws.commit();
    await wb.commit();
    parentPort.postMessage({ t: 'done', size: fs.statSync(workerData.file).size });
    return;
  }
  parentPort.postMessage({ t: 'ack' });
};
let chain = Promise.resolve();
parentPort.on('message', (m) => {
  chain = chain.then(() => handle(m)).catch((err) => parentPort.postMessage({ t: 'error', message: String(err && err.stack || err) }));
});
`;

type FromWorker = { t: 'ack' } | { t: 'done'; size: number } | { t: 'error'; message: string };

/** Batches sent and not yet acknowledged: 2 lets the next batch be read while the thread writes one. */
const IN_FLIGHT = 2;

/** One .xlsx file being written by its own thread. Call sheet(), rows()…, then end() (or abort()). */
export class XlsxFile {
  private readonly worker: Worker;
  private readonly waiting: Array<{ resolve(): void; reject(e: Error): void }> = [];
  private inFlight = 0;
  private failed: Error | null = null;
  private finished: ((size: number) => void) | null = null;

  constructor(file: string, sheetRows: number = EXPORT_LIMITS.sheetRows) {
    const exceljs = createRequire(import.meta.url).resolve('exceljs');
    this.worker = new Worker(WORKER, { eval: true, workerData: { file, exceljs, sheetRows } });
    this.worker.on('message', (m: FromWorker) => this.onMessage(m));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => {
      if (code !== 0 || !this.finished) this.fail(new Error(`xlsx writer exited (${code})`));
    });
  }

  private onMessage(m: FromWorker): void {
    if (m.t === 'error') return this.fail(new Error(m.message));
    if (m.t === 'done') {
      const f = this.finished;
      this.finished = null;
      void this.worker.terminate();
      f?.(m.size);
      return;
    }
    this.inFlight--;
    this.waiting.shift()?.resolve();
  }

  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = err;
    for (const w of this.waiting.splice(0)) w.reject(err);
    if (this.finished) this.finished = null;
    this.onFail?.(err);
  }

  private onFail?: (err: Error) => void;

  private send(m: unknown): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    this.worker.postMessage(m);
    this.inFlight++;
    if (this.inFlight < IN_FLIGHT) return Promise.resolve();
    // Resolved by the ack of the oldest batch in flight.
    return new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  sheet(name: string, columns: readonly ExportColumn[]): Promise<void> {
    return this.send({ t: 'sheet', name, columns });
  }

  rows(rows: ExportCell[][]): Promise<void> {
    return rows.length ? this.send({ t: 'rows', rows }) : Promise.resolve();
  }

  /** Finishes the file; resolves with its size in bytes. */
  end(): Promise<number> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise<number>((resolve, reject) => {
      this.finished = resolve;
      this.onFail = reject;
      this.worker.postMessage({ t: 'end' });
    });
  }

  /** Stops the thread; whatever waits on this file is rejected. */
  async abort(): Promise<void> {
    this.fail(new Error('aborted'));
    await this.worker.terminate();
  }
}
