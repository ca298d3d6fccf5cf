import type { TranslateConfigDto, TranslateProvider, TranslateResultDto } from '@kefu/protocol';
import { get, post, request } from '../../lib/api';

export interface TranslateConfigFields {
  provider: TranslateProvider;
  url: string;
  key?: string;
  model: string;
  timeoutMs: number;
}

/**
 * One translation at a time: the request layer cancels a pending call when the same path is called again,
 * and a chat opened with many foreign lines should not flood the provider either.
 */
let queue: Promise<unknown> = Promise.resolve();
function serial<T>(run: () => Promise<T>): Promise<T> {
  const next = queue.then(run, run);
  queue = next.catch(() => undefined);
  return next;
}

export const translateApi = {
  /** Silent: a failure is shown under the message with a retry, not as a toast. */
  translate: (m: { id: string; message: string; usession: string }) =>
    serial(() =>
      request<TranslateResultDto>('/translateMessage/translate', {
        method: 'POST',
        body: { messageid: m.id, message: m.message, userid: m.usession, type: 'agent' },
        silent: true,
      }),
    ),
  config: (signal?: AbortSignal) => get<TranslateConfigDto>('/translateMessage/config', undefined, signal),
  saveConfig: (v: TranslateConfigFields) => post<TranslateConfigDto>('/translateMessage/config/save', v),
};
