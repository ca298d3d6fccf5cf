import type { OpinionDto, SatisfactionSettingsDto } from '@kefu/protocol';
import { get, post, postForMsg } from '../../lib/api';

export type SatisfactionData = SatisfactionSettingsDto & { opinions: OpinionDto[] };

export interface SatisfactionDraft {
  text: string;
  multi: boolean;
  comment: boolean;
  levels: string[];
}

export const satisfactionApi = {
  data: (signal?: AbortSignal) => get<SatisfactionData>('/satisfaction/data', undefined, signal),
  enabled: (enabled: boolean) => post<SatisfactionSettingsDto>('/satisfaction/enabled', { enabled }),
  update: (d: SatisfactionDraft) => post<SatisfactionSettingsDto>('/satisfaction/update', d),
  opinions: (signal?: AbortSignal) => get<OpinionDto[]>('/opinion/list', undefined, signal),
  saveOpinion: (name: string) => post<OpinionDto>('/opinion/save', { name }),
  updateOpinion: (id: string, name: string) => post<OpinionDto>('/opinion/update', { id, name }),
  removeOpinion: (id: string) => postForMsg('/opinion/delete', { id }),
  sortOpinions: (ids: string[]) => post<OpinionDto[]>('/opinion/sort', { ids }),
};
