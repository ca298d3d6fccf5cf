/**
 * A server that shuts down (restart, deploy) tells its sockets first, with `restart`, then closes them
 * without a socket.io DISCONNECT, so socket.io-client's own reconnection runs. Told that the server will be
 * back soon, a client retries every few hundred milliseconds instead of backing off to the spec's 5 s
 * (SOCKET_RECONNECTION), so it is back within a second of the server; once connected, or when the window
 * passes without success, the usual back-off applies again.
 */
export const RESTART_EVENT = 'restart';

export interface RestartHint {
  /** Shortest pause between two attempts while the server restarts. */
  retryMs: number;
  /** Longest pause between two attempts (the back-off doubles up to it). */
  retryMaxMs: number;
  /** How long to keep retrying this fast; then the usual back-off. */
  windowMs: number;
}

/** What a kefu server sends. A restart to serving takes about a second (docs/benchmarks.md, R1). */
export const RESTART_HINT: RestartHint = { retryMs: 200, retryMaxMs: 400, windowMs: 60_000 };

/** The reconnection settings of a socket.io-client Manager (`socket.io`), as its setters. */
export interface ReconnectionTuning {
  reconnectionDelay(v: number): unknown;
  reconnectionDelayMax(v: number): unknown;
}

export interface ReconnectionDefaults {
  reconnectionDelay: number;
  reconnectionDelayMax: number;
}

const clamp = (v: unknown, min: number, max: number, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;

/**
 * Applies a server's restart hint to a socket.io-client Manager and puts its own settings back later.
 * Wire it as `socket.on(RESTART_EVENT, f.hint)` and `socket.on('connect', f.connected)`.
 */
export function restartFollower(
  manager: ReconnectionTuning,
  defaults: ReconnectionDefaults,
): { hint(h: Partial<RestartHint> | undefined): void; connected(): void; readonly fast: boolean } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fast = false;
  const restore = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!fast) return;
    fast = false;
    manager.reconnectionDelay(defaults.reconnectionDelay);
    manager.reconnectionDelayMax(defaults.reconnectionDelayMax);
  };
  return {
    hint(h) {
      // Bounded, so a malformed hint can neither hammer the server nor slow the client below its defaults.
      const min = clamp(h?.retryMs, 50, defaults.reconnectionDelay, RESTART_HINT.retryMs);
      const max = clamp(h?.retryMaxMs, min, defaults.reconnectionDelayMax, RESTART_HINT.retryMaxMs);
      const windowMs = clamp(h?.windowMs, 1_000, 600_000, RESTART_HINT.windowMs);
      fast = true;
      manager.reconnectionDelay(min);
      manager.reconnectionDelayMax(max);
      clearTimeout(timer);
      timer = setTimeout(restore, windowMs);
    },
    connected: restore,
    get fast() {
      return fast;
    },
  };
}
