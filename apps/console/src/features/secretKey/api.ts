import type {
  Page,
  SecretKeyInfoDto,
  WebhookConfig,
  WebhookDeliveryDto,
  WebhookStatus,
} from '@kefu/protocol';
import { get, post } from '../../lib/api';

export const keyApi = {
  info: (signal?: AbortSignal) => get<SecretKeyInfoDto | null>('/key/info', undefined, signal),
  rotate: () => post<SecretKeyInfoDto & { secret: string }>('/key/save'),
  webhook: (signal?: AbortSignal) => get<WebhookConfig>('/webhook/config', undefined, signal),
  saveWebhook: (c: Partial<WebhookConfig>) => post<WebhookConfig>('/webhook/save', c),
  test: () => post<{ id: string }>('/webhook/test'),
  deliveries: (q: { status?: WebhookStatus; p: number; ps: number }, signal?: AbortSignal) =>
    get<Page<WebhookDeliveryDto>>('/webhook/deliveries', { ...q }, signal),
  retry: (id: string) => post<null>('/webhook/retry', { id }),
};
