import type {
  BlackEntryDto,
  ContactDto,
  ExportJobDto,
  HistoryDetailDto,
  HistoryMessagePage,
  HistoryPage,
  HistorySort,
} from '@kefu/protocol';
import { get, post } from '../../lib/api';
import type { Query } from '../../lib/request';
import { exportOptions } from '../../components/exportApi';

/** The history filter as the list and expsearch take it (query values). */
export interface HistoryFilter {
  begin?: number;
  end?: number;
  keyword?: string;
  organ?: string;
  agentno?: string;
  channel?: string;
  appid?: string;
  visitor?: string;
  contactid?: string;
  tagid?: string;
  topicid?: string;
  satislevel?: number;
  endby?: string;
  waitMin?: number;
  waitMax?: number;
  serveMin?: number;
  serveMax?: number;
  leavemsg?: boolean;
  ai?: boolean;
  sort?: HistorySort;
  order?: 'asc' | 'desc';
}

const query = (f: HistoryFilter): Query => ({ ...f });

/** /api/agentService/* (A04). */
export const historyApi = {
  list: (q: HistoryFilter & { p: number; ps: number }, signal?: AbortSignal) =>
    get<HistoryPage>('/agentService/list', query(q), signal),
  detail: (agentserviceid: string, signal?: AbortSignal) =>
    get<HistoryDetailDto>('/agentService/detail', { agentserviceid }, signal),
  messages: (agentserviceid: string, at: { before?: number }, signal?: AbortSignal) =>
    get<HistoryMessagePage>('/agentService/message/list', { agentserviceid, ...at }, signal),
  contact: (agentserviceid: string, signal?: AbortSignal) =>
    get<ContactDto | null>('/agentService/contacts/detail', { agentserviceid }, signal),
  update: (b: { agentserviceid: string; topicid?: string | null; memo?: string; tagids?: string[] }) =>
    post<HistoryDetailDto>('/agentService/update', b),
  black: (b: { agentserviceid: string; controltime: number; description: string }) =>
    post<BlackEntryDto>('/agentService/black', b),
  exportIds: (ids: string[]) => post<ExportJobDto>('/agentService/expids', { ids, ...exportOptions() }),
  exportSearch: (f: HistoryFilter) => {
    const { sort: _sort, order: _order, ...filter } = f;
    return post<ExportJobDto>('/agentService/expsearch', { ...filter, ...exportOptions() });
  },
};
