import { useQuery } from '@tanstack/react-query';
import {
  PII_RULES_DEFAULT,
  type Page,
  type PiiRules,
  type SensitiveAction,
  type SensitiveBatchResult,
  type SensitiveCheckResult,
  type SensitiveHitDto,
  type SensitiveKind,
  type SensitiveWordDto,
} from '@kefu/protocol';
import { get, post, request } from '../../lib/api';

export interface WordFilter {
  q?: string;
  action?: SensitiveAction;
}

export const sensitiveApi = {
  page: (kind: SensitiveKind, q: WordFilter & { p: number; ps: number }, signal?: AbortSignal) =>
    get<Page<SensitiveWordDto>>(`/sensitive/${kind}/page`, { ...q }, signal),
  save: (kind: SensitiveKind, b: { word: string; action: SensitiveAction }) =>
    post<SensitiveWordDto>(`/sensitive/${kind}/save`, b),
  update: (kind: SensitiveKind, b: { id: string; word: string; action: SensitiveAction }) =>
    post<SensitiveWordDto>(`/sensitive/${kind}/update`, b),
  batadd: (kind: SensitiveKind, b: { words: string; action: SensitiveAction }) =>
    post<SensitiveBatchResult>(`/sensitive/${kind}/batadd`, b),
  remove: (kind: SensitiveKind, id: string) => post<null>(`/sensitive/${kind}/delete`, { id }),
  batdel: (kind: SensitiveKind, ids: string[]) =>
    post<{ removed: number }>(`/sensitive/${kind}/batdel`, { ids }),
  /** The composer's check; silent: a failed check must not toast while the agent types. */
  check: (text: string, signal?: AbortSignal) =>
    request<SensitiveCheckResult>('/sensitive/check', {
      method: 'POST',
      body: { text },
      silent: true,
      signal,
    }),
  pii: (signal?: AbortSignal) => get<PiiRules>('/sensitive/pii', undefined, signal),
  savePii: (b: PiiRules) => post<PiiRules>('/sensitive/pii/save', b),
  hits: (q: { action?: SensitiveAction; p: number; ps: number }, signal?: AbortSignal) =>
    get<Page<SensitiveHitDto>>('/sensitive/hits', { ...q }, signal),
};

export const PII_QUERY_KEY = ['sensitive-pii'];

/** The tenant's masking rules (read once, kept for 5 minutes; the rules screen refreshes them on save). */
export function usePiiRules(): PiiRules {
  const q = useQuery({
    queryKey: PII_QUERY_KEY,
    queryFn: ({ signal }) => sensitiveApi.pii(signal),
    staleTime: 5 * 60_000,
  });
  return q.data ?? PII_RULES_DEFAULT;
}
