import type {
  ExportJobDto,
  KbImportResult,
  KbItemDto,
  KbItemState,
  KbSuggestResult,
  KbSynonymDto,
  KbTrainResult,
  KbTypeDto,
  Page,
} from '@kefu/protocol';
import { get, post, request } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { exportOptions } from '../../components/exportApi';

/** The list's filter (GET /api/xiaoe/knowledge/list, also expsearch). */
export interface KbFilter {
  typeid?: string;
  q?: string;
  state?: KbItemState;
  topic?: string;
}

/** What the item form sends (save / update): the item's own fields, its type and its topics by id. */
export type KbItemFields = Pick<
  KbItemDto,
  'question' | 'similar' | 'answer' | 'enabled' | 'begintime' | 'endtime'
> & {
  typeid: string | null;
  topics: string[];
};

const K = '/xiaoe/knowledge';
const T = '/xiaoe/knowledgeType';

export const kbApi = {
  types: (signal?: AbortSignal) => get<KbTypeDto[]>(`${T}/list`, undefined, signal),
  saveType: (b: { name: string; parentid?: string | null }) => post<KbTypeDto>(`${T}/save`, b),
  updateType: (b: { id: string; name: string; parentid?: string | null }) =>
    post<KbTypeDto>(`${T}/update`, b),
  removeType: (id: string) => post<null>(`${T}/delete`, { id }),
  page: (q: KbFilter & { p: number; ps: number }, signal?: AbortSignal) =>
    get<Page<KbItemDto>>(`${K}/list`, { ...q }, signal),
  save: (b: KbItemFields) => post<KbItemDto>(`${K}/save`, b),
  update: (id: string, b: KbItemFields) => post<KbItemDto>(`${K}/update`, { id, ...b }),
  remove: (id: string) => post<{ deleted: number }>(`${K}/delete`, { id }),
  removeMany: (ids: string[]) => post<{ deleted: number }>(`${K}/batdel`, { ids }),
  setEnabled: (ids: string[], enabled: boolean) =>
    post<{ updated: number }>(`${K}/enabled`, { ids, enabled }),
  train: () => post<KbTrainResult>(`${K}/train`),
  template: (lang: 'zh' | 'en') => downloadFile(`${K}/download`, { lang }, `knowledge-template-${lang}.xlsx`),
  /** Silent: the import dialog lists the refused rows itself. */
  import: (file: File) => {
    const body = new FormData();
    body.append('file', file, file.name);
    return request<KbImportResult>(`${K}/import`, { body, params: exportOptions(), silent: true });
  },
  exportSearch: (f: KbFilter) => get<ExportJobDto>(`${K}/expsearch`, { ...f, ...exportOptions() }),
  exportAll: () => get<ExportJobDto>(`${K}/expall`, exportOptions()),
  synonyms: (signal?: AbortSignal) => get<KbSynonymDto[]>(`${K}/synonym/list`, undefined, signal),
  saveSynonym: (words: string) => post<KbSynonymDto>(`${K}/synonym/save`, { words }),
  updateSynonym: (id: string, words: string) => post<KbSynonymDto>(`${K}/synonym/update`, { id, words }),
  removeSynonym: (id: string) => post<null>(`${K}/synonym/delete`, { id }),
  /** Agent assist: suggestions for a conversation's latest visitor text. */
  suggest: (agentserviceid: string, signal?: AbortSignal) =>
    get<KbSuggestResult>(`${K}/suggest`, { agentserviceid }, signal),
};
