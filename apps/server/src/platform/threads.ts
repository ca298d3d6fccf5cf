/**
 * The first statement of a background worker thread's source (eval'd CommonJS): the thread lowers its own
 * scheduling priority (nice 10). When the event loop and the thread want the same core (a 2-core box, or a
 * server pinned to one core) the kernel gives the event loop ≈ 90 % of it, and a message arriving wakes
 * the loop ahead of the search. Not 19: on a host busy with other processes a nice-19 search got almost
 * no CPU at all (B8 ran 3–4× slower than the same SQL in the bench process). Linux names a thread by its
 * id (/proc/thread-self); elsewhere this does nothing.
 */
export const LOW_PRIORITY_THREAD = `try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0) require('node:os').setPriority(tid, 10);
} catch { /* not Linux, or not allowed: normal priority */ }
`;
