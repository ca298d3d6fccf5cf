/**
 * Preloaded (`--import`) into every server under test, kefu and baselines alike: answers the bench's
 * memory/CPU probes over the IPC channel. Needs `--expose-gc` to collect before measuring.
 */
import { serve } from '../lib/child.js';

if (process.send) {
  serve(async (msg) => {
    if (msg.cmd === 'mem') {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) {
        gc();
        await new Promise((r) => setTimeout(r, 50));
        gc();
      }
      const m = process.memoryUsage();
      return { rss: m.rss, heapUsed: m.heapUsed, cpu: process.cpuUsage() };
    }
    // CPU time only (no gc): for CPU-per-request readings around a load run.
    if (msg.cmd === 'cpu') return process.cpuUsage();
    throw new Error(`unknown probe ${String(msg.cmd)}`);
  });
}
