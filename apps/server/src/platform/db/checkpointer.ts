import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints on a thread of their own. SQLite runs a checkpoint inside the commit that crosses
 * `wal_autocheckpoint`: copying the WAL back into the database and two fsyncs, several milliseconds during
 * which the event loop stands still (it was most of the p99 of message delivery). Here a second connection
 * runs PASSIVE checkpoints every few milliseconds instead: PASSIVE never waits for or blocks the writer,
 * and once every frame is copied the writer starts the WAL over, so it stays small. The writer's own
 * auto-checkpoint stays on with a high threshold as the safety net should this thread fall behind or die.
 */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
let stopped = false;
const tick = () => {
  if (stopped) return;
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or closing: next tick */ }
  setTimeout(tick, workerData.everyMs);
};
parentPort.on('message', (m) => {
  if (m === 'stop') { stopped = true; db.close(); parentPort.postMessage('stopped'); }
});
tick();
`;

/** Pages the writer lets the WAL reach before checkpointing itself (the default is 1,000). */
export const WRITER_AUTOCHECKPOINT_PAGES = 20_000;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, everyMs = 50): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, module, everyMs } });
  // Never keeps the process alive; a crash only means the writer checkpoints by itself again.
  worker.unref();
  worker.on('error', (err) => console.warn(`sqlite checkpointer stopped: ${err.message}`));
  let stopping: Promise<void> | undefined;
  return {
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        const done = () => resolve();
        worker.once('message', () => void worker.terminate().then(done, done));
        worker.once('exit', done);
        worker.postMessage('stop');
      })),
  };
}
