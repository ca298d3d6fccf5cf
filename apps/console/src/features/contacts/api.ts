import type { ContactDto, ContactViewDto, ExportJobDto, Gender, Page } from '@kefu/protocol';
import { get, post, request } from '../../lib/api';
import { exportOptions } from '../../components/exportApi';

/** The list's filter (GET /api/contacts/index). */
export interface ContactFilter {
  q?: string;
  tag?: string;
  gender?: Gender;
  begin?: number;
  end?: number;
}

/** The fields a contact form sends (save / update / PUT from a chat). */
export interface ContactFields {
  name?: string;
  phone?: string;
  email?: string;
  company?: string;
  gender?: Gender;
  region?: string;
  address?: string;
  birthday?: string;
  memo?: string;
  tags?: string[];
  owner?: string;
}

export const contactsApi = {
  page: (q: ContactFilter & { p: number; ps: number }, signal?: AbortSignal) =>
    get<Page<ContactDto>>('/contacts/index', { ...q }, signal),
  view: (id: string, p = 1, signal?: AbortSignal) => get<ContactViewDto>('/contacts/view', { id, p }, signal),
  save: (b: ContactFields) => post<ContactDto>('/contacts/save', b),
  update: (id: string, b: ContactFields) => post<ContactDto>('/contacts/update', { id, ...b }),
  remove: (id: string) => post<null>('/contacts/delete', { id }),
  merge: (target: string, source: string) => post<ContactDto>('/contacts/merge', { target, source }),
  /** From a chat: the conversation's visitor's contact, created / updated / linked (`contactid`). */
  fromChat: (agentserviceid: string, b: ContactFields & { contactid?: string }) =>
    request<ContactDto>('/contacts', { method: 'PUT', body: { agentserviceid, ...b } }),
  exportIds: (ids: string[]) =>
    get<ExportJobDto>('/contacts/expids', { ids: ids.join(','), ...exportOptions() }),
  exportSearch: (f: ContactFilter) => get<ExportJobDto>('/contacts/expsearch', { ...f, ...exportOptions() }),
  /** Silent: the import dialog lists the refused rows itself. */
  import: (file: File) => {
    const body = new FormData();
    body.append('file', file, file.name);
    return request<{ created: number; updated: number }>('/contacts/import', { body, silent: true });
  },
};
