import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SHORTCUTS_DEFAULT,
  type QuickFileDto,
  type QuickFileScope,
  type QuickFileSendDto,
  type ShortcutsDto,
} from '@kefu/protocol';
import { get, post } from '../../lib/api';
import { isQuickKey, isSendKey, type KeyPress } from './keys';

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
    isSend: (e: KeyPress) => isSendKey(s, e),
    isQuick: (e: KeyPress) => isQuickKey(s, e),
    save: async (next: Partial<ShortcutsDto>) => qc.setQueryData(KEY, await quickFileApi.saveShortcuts(next)),
  };
}
