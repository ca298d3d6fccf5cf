/**
 * Registry of the console's long-lived timers (agent ping, heartbeat…), so logout can stop them
 * all without knowing which features started which.
 */
const intervals = new Set<ReturnType<typeof setInterval>>();
const stoppers = new Set<() => void>();

export function registerInterval(fn: () => void, ms: number): () => void {
  const id = setInterval(fn, ms);
  intervals.add(id);
  return () => {
    clearInterval(id);
    intervals.delete(id);
  };
}

/** For things that are not plain intervals (sockets, debounced reporters). */
export function registerStopper(stop: () => void): () => void {
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

export function stopAllTimers(): void {
  for (const id of intervals) clearInterval(id);
  intervals.clear();
  for (const stop of stoppers) stop();
  stoppers.clear();
}
