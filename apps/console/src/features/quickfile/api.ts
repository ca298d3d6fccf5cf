import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SHORTCUTS_DEFAULT,
  type QuickFileDto,
  type QuickFileScope,
  type QuickFileSendDto,
  type ShortcutsDto,
} from '@kefu/protocol';
import { get, post } from '../../lib/api';

export const quickFileApi = {
  list: (signal?: AbortSignal) => get<QuickFileDto[]>('/agent/quickFile/list', undefined, signal),
  save: (mediaid: string, scope: QuickFileScope = 'pri') =>
    post<QuickFileDto>('/agent/quickFile/save', { mediaid, scope }),
  remove: (id: string) => post<null>('/agent/quickFile/delete', { id }),
  send: (id: string) => post<QuickFileSendDto>('/agent/quickFile/send', { id }),
  rank: (scope: QuickFileScope, ids: string[]) =>
    post<QuickFileDto[]>('/agent/quickFile/rank', { scope, ids }),
  shortcuts: (signal?: AbortSignal) => get<ShortcutsDto>('/agent/shortcuts', undefined, signal),
  saveShortcuts: (s: Partial<ShortcutsDto>) => post<ShortcutsDto>('/agent/shortcutsSave', s),
};

const KEY = ['agent-shortcuts'];

/** The agent's keyboard shortcuts and the tests the composer's key handler uses. */
export function useShortcuts() {
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => quickFileApi.shortcuts(signal),
    staleTime: Infinity,
  });
  const s = q.data ?? SHORTCUTS_DEFAULT;
  return {
    ...s,
    isSend: (e: {
      key: string;
      shiftKey: boolean;
      ctrlKey: boolean;
      metaKey: boolean;
      isComposing: boolean;
    }) =>
      e.key === 'Enter' &&
      !e.isComposing &&
      (s.send === 'enter' ? !e.shiftKey && !e.ctrlKey && !e.metaKey : e.ctrlKey || e.metaKey),
    isQuick: (e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }) => {
      const k = e.key.toLowerCase();
      if (s.quick === 'ctrl+/') return (e.ctrlKey || e.metaKey) && k === '/';
      if (s.quick === 'ctrl+k') return (e.ctrlKey || e.metaKey) && k === 'k';
      if (s.quick === 'alt+q') return e.altKey && k === 'q';
      return false;
    },
    save: async (next: Partial<ShortcutsDto>) => qc.setQueryData(KEY, await quickFileApi.saveShortcuts(next)),
  };
}
