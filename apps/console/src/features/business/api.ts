import type {
  BusinessEncryptionDto,
  BusinessLinkDto,
  BusinessOpenType,
  BusinessSystemDto,
  CrmLinkDto,
} from '@kefu/protocol';
import { get, post, request } from '../../lib/api';

export interface BusinessDraft {
  id?: string;
  name: string;
  url: string;
  ticketurl: string;
  opentype: BusinessOpenType;
  enabled: boolean;
}

export const businessApi = {
  list: (signal?: AbortSignal) => get<BusinessSystemDto[]>('/business/list', undefined, signal),
  save: (d: BusinessDraft) => post<BusinessSystemDto>('/business/save', d),
  remove: (id: string) => post<null>('/business/delete', { id }),
  encryption: (id: string, rotate = false) =>
    get<BusinessEncryptionDto>('/business/encryption', { id, ...(rotate ? { rotate: 1 } : {}) }),
  links: (agentserviceid: string, signal?: AbortSignal) =>
    get<BusinessLinkDto[]>('/business/links', { agentserviceid }, signal),
  addCrm: (product: string, agentserviceid: string, crmid: string) =>
    post<CrmLinkDto>(`/${encodeURIComponent(product)}/customservice/addCrm`, { agentserviceid, crmid }),
  /** Quiet: "no linked record" (10702) is an answer here, not an error to toast. */
  viewCrm: (product: string, agentserviceid: string) =>
    request<CrmLinkDto>(`/${encodeURIComponent(product)}/customservice/viewCrm`, {
      params: { agentserviceid },
      silent: true,
    }),
  viewTicket: (product: string, agentserviceid: string) =>
    request<{ url: string }>(`/${encodeURIComponent(product)}/customservice/viewTicket`, {
      params: { agentserviceid },
      silent: true,
    }),
};

/**
 * Opens a system's signed URL: a new tab, or a window docked at the right of the screen (the console's
 * content policy does not frame other sites, so the "side panel" is a window of its own).
 */
export function openBusiness(url: string, opentype: BusinessOpenType): void {
  if (opentype === 'tab') {
    window.open(url, '_blank', 'noopener');
    return;
  }
  const w = Math.min(520, Math.round(window.screen.availWidth * 0.4));
  const h = window.screen.availHeight;
  window.open(
    url,
    'kefu-business-panel',
    `noopener,width=${w},height=${h},left=${window.screen.availWidth - w},top=0`,
  );
}
