/** socket.io-client helpers the load generators share (each generator runs as its own process). */
import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';

export type Payload = Record<string, unknown>;
export type AckRes = { success: boolean; msg?: string; data?: unknown };

/** The p-th percentile of an ascending list (NaN when empty). */
export function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** A websocket-only client without reconnection (a lost client is a failure to count, not to hide). */
export function socket(url: string, nsp: string, query: Record<string, string>, timeout = 30_000): Socket {
  return io(`${url}${nsp}`, {
    query,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout,
  });
}

/** The next `event`, or a rejection on timeout or a refused connect. */
export function once<T>(s: Socket, event: string, ms = 30_000): Promise<T> {
  return new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error(`timeout waiting for ${event}`)), ms);
    s.once(event, (p: T) => {
      clearTimeout(t);
      res(p);
    });
    s.once('connect_error', (err: Error) => {
      clearTimeout(t);
      rej(err);
    });
  });
}

/** Emits with an ack; a timeout answers `{success: false}` instead of throwing. */
export const ackOf = (s: Socket, event: string, payload: unknown, ms = 30_000): Promise<AckRes> =>
  new Promise((res) =>
    s
      .timeout(ms)
      .emit(event, payload, (err: Error | null, r: AckRes) =>
        res(err ? { success: false, msg: err.message } : r),
      ),
  );

/** A visitor id (32 chars). */
export const vid = (): string => randomUUID().replace(/-/g, '');

/** Runs `fn` over items with at most `limit` in flight. */
export async function pool<T>(items: T[], limit: number, fn: (t: T) => Promise<void>): Promise<void> {
  let i = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (i < items.length) await fn(items[i++]!);
  });
  await Promise.all(workers);
}
