/**
 * The first statement of a background worker thread's source (eval'd CommonJS): the thread lowers its own
 * scheduling priority (nice 19). Searches and exports then take only the CPU that live chat leaves: when
 * the event loop and the thread want the same core (a 2-core box, or a server pinned to one core) the
 * kernel gives the event loop ≈ 98 % of it. Linux names a thread by its id (/proc/thread-self); elsewhere
 * this does nothing.
 */
export const LOW_PRIORITY_THREAD = `try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0) require('node:os').setPriority(tid, 19);
} catch { /* not Linux, or not allowed: normal priority */ }
`;
