import type {
  AccessCodeDto,
  AccessPointDto,
  ConsultConfig,
  DialogueConfig,
  FaqItemDto,
  InformationConfig,
  InviteConfig,
  LeavemsgConfig,
} from '@kefu/protocol';
import { get, post, postForMsg } from '../../lib/api';

export interface AccessDraft {
  name: string;
  domain?: string;
  organ?: string | null;
}

/** Widget settings sections of an access point, by their API prefix (docs/api.md). */
export interface SectionTypes {
  consultationIcon: ConsultConfig;
  invote: InviteConfig;
  profile: DialogueConfig;
  gathering: InformationConfig;
  'leavemsg/config': LeavemsgConfig;
}
export type SectionKey = keyof SectionTypes;

export const accessApi = {
  list: (signal?: AbortSignal) => get<AccessPointDto[]>('/dialogue/access/list', undefined, signal),
  save: (d: AccessDraft) => post<AccessPointDto>('/dialogue/access/save', d),
  update: (d: AccessDraft & { id: string }) => post<AccessPointDto>('/dialogue/access/update', d),
  remove: (id: string) => postForMsg('/dialogue/access/delete', { id }),
  code: (id: string, signal?: AbortSignal) => get<AccessCodeDto>('/webim/accesscode', { id }, signal),
  section: <K extends SectionKey>(key: K, appid: string, signal?: AbortSignal) =>
    get<SectionTypes[K]>(`/${key}/detail`, { appid }, signal),
  saveSection: <K extends SectionKey>(key: K, appid: string, v: Partial<SectionTypes[K]>) =>
    post<SectionTypes[K]>(`/${key}/save`, { ...v, appid }),
  resetSection: <K extends SectionKey>(key: K, appid: string) => postForMsg(`/${key}/delete`, { appid }),
  faq: (appid: string, signal?: AbortSignal) => get<FaqItemDto[]>('/problem/list', { appid }, signal),
  faqSave: (appid: string, v: { question: string; answer: string }) =>
    post<FaqItemDto>('/problem/save', { ...v, appid }),
  faqUpdate: (id: string, v: { question: string; answer: string }) =>
    post<FaqItemDto>('/problem/update', { ...v, id }),
  faqRemove: (id: string) => postForMsg('/problem/delete', { id }),
  faqSort: (appid: string, ids: string[]) => post<FaqItemDto[]>('/problem/sort', { appid, ids }),
};

/** Moves the item at `index` one place up (-1) or down (+1); returns the new id order. */
export function moveId(ids: readonly string[], index: number, delta: -1 | 1): string[] {
  const to = index + delta;
  if (index < 0 || index >= ids.length || to < 0 || to >= ids.length) return [...ids];
  const out = [...ids];
  [out[index], out[to]] = [out[to], out[index]];
  return out;
}

/** Copies text to the clipboard; falls back to a hidden textarea where the async API is missing. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the textarea copy
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.appendChild(ta);
  ta.select();
  let copied: boolean;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  ta.remove();
  return copied;
}
