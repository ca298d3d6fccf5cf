import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '@kefu/protocol';
import { firstPage, type PageState } from '../lib/table';

/**
 * The state of a list screen: the applied filter, the page, the query, and the selected row keys (batch
 * actions, "export selected"). Searching with a new filter goes back to page 1 and clears the selection.
 * `fetch` gets the filter and the page (p, ps) and answers a Page (or a page type with more fields, P).
 */
export function useList<F extends object, T, P extends Page<T> = Page<T>>(
  key: string,
  fetch: (q: F & PageState, signal: AbortSignal) => Promise<P>,
  initial: F,
) {
  const qc = useQueryClient();
  const [filter, setFilterState] = useState<F>(initial);
  const [page, setPage] = useState<PageState>(firstPage);
  const [selected, setSelected] = useState<string[]>([]);
  const query = useQuery({
    queryKey: [key, filter, page],
    queryFn: ({ signal }) => fetch({ ...filter, ...page }, signal),
    placeholderData: keepPreviousData,
  });
  return {
    filter,
    page,
    query,
    selected,
    setSelected,
    setPage,
    search: (f: F) => {
      setFilterState(f);
      setPage({ ...firstPage, ps: page.ps });
      setSelected([]);
    },
    /** Reloads every page of this list (after an edit or a delete). */
    refresh: () => qc.invalidateQueries({ queryKey: [key] }),
  };
}

export type ListState<F extends object, T> = ReturnType<typeof useList<F, T>>;
