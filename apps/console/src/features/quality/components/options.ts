import { useQuery } from '@tanstack/react-query';
import { skillList } from '../../section/api';
import { talkApi } from '../../dialogue/api';
import { qualityApi } from '../api';
import { userDisplayName } from '@kefu/protocol';

/** The pickers' choices: agents, skill groups, inspectors (users holding A11_A01), scorecards. */
export function useAgentOptions() {
  const q = useQuery({
    queryKey: ['common', 'users'],
    queryFn: ({ signal }) => talkApi.colleagues(signal),
  });
  return (q.data ?? []).map((a) => ({ value: a.id, label: userDisplayName(a) }));
}

export function useSkillOptions() {
  const q = useQuery({
    queryKey: ['common', 'skills'],
    queryFn: ({ signal }) => skillList(signal),
  });
  return (q.data ?? []).map((o) => ({ value: o.id, label: o.name }));
}

export function useInspectorOptions(enabled = true) {
  const q = useQuery({
    queryKey: ['quality', 'inspectors'],
    queryFn: ({ signal }) => qualityApi.inspectors(signal),
    enabled,
    retry: false,
  });
  return (q.data ?? []).map((a) => ({ value: a.id, label: a.name }));
}

export function useCardOptions(enabled = true) {
  const q = useQuery({
    queryKey: ['quality', 'cards'],
    queryFn: ({ signal }) => qualityApi.cards(signal),
    enabled,
    retry: false,
  });
  return q;
}
