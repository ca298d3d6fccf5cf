import type {
  AnalysisCall,
  AnalysisOptionsDto,
  AnalysisQuery,
  AnalysisResultDto,
  ExportJobDto,
} from '@kefu/protocol';
import { get, post } from '../../lib/api';
import { exportOptions } from '../../components/exportApi';
import { i18n } from '../../lib/i18n';

/** /api/analyse/*: one call per analysis screen, its filter options, and the .xlsx export of its table. */
export const analysisApi = {
  get: (call: AnalysisCall, q: AnalysisQuery, signal?: AbortSignal) =>
    get<AnalysisResultDto>(`/analyse/${call}`, { ...q, compare: q.compare ? 1 : undefined }, signal),
  options: (call: AnalysisCall, signal?: AbortSignal) =>
    get<AnalysisOptionsDto>('/analyse/options', { call }, signal),
  export: (call: AnalysisCall, q: AnalysisQuery) =>
    post<ExportJobDto>('/analyse/export', {
      ...q,
      compare: undefined,
      call,
      lang: (i18n.language ?? 'zh').startsWith('en') ? 'en' : 'zh',
      ...exportOptions(),
    }),
};
