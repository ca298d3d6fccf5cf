import { CODES, errorText, type Ack } from '@kefu/protocol';
import { AppError } from '../../platform/http/errors.js';

/** Turns a thrown error into the ack envelope; unknown errors are logged and answered as server_error. */
export function failure(err: unknown, lang: string): Ack<never> {
  if (err instanceof AppError) {
    return { success: false, msg: err.text(lang), code: err.code, key: err.key, fields: err.fields };
  }
  console.error('socket handler failed', err);
  return {
    success: false,
    msg: errorText('server_error', lang),
    code: CODES.serverError,
    key: 'server_error',
  };
}

export const success = <T>(data: T): Ack<T> => ({ success: true, data, msg: 'ok', code: CODES.ok });

/**
 * Runs a socket handler; its result or error goes to the ack (if the client sent one). Handlers of one
 * socket run one after another, so a client's messages keep their order.
 */
export function handler<P, T>(
  lang: () => string,
  run: (payload: P) => Promise<T>,
  queue: { tail: Promise<unknown> },
): (payload: P, ack?: (res: Ack<T>) => void) => void {
  // A pipelined handler that never lets the next payload in early: its turn ends when it finishes.
  return pipelined(lang, (payload: P) => run(payload), queue);
}

/**
 * handler() for sends whose order is fixed once they are queued for writing (the group commit keeps
 * arrival order): the socket's next payload starts as soon as this one calls `queued()` — or finishes —
 * instead of after its commit, so a client with several sends in flight shares batches with itself.
 * Acks still go out only after the commit, in order.
 */
export function pipelined<P, T>(
  lang: () => string,
  run: (payload: P, queued: () => void) => Promise<T>,
  queue: { tail: Promise<unknown> },
): (payload: P, ack?: (res: Ack<T>) => void) => void {
  return (payload, ack) => {
    const cb = typeof ack === 'function' ? ack : undefined;
    let release!: () => void;
    const turn = new Promise<void>((r) => (release = r));
    const prev = queue.tail;
    queue.tail = turn;
    void prev.then(async () => {
      try {
        const data = await run(payload, release);
        cb?.(success(data));
      } catch (err) {
        cb?.(failure(err, lang()));
      } finally {
        release();
      }
    });
  };
}
