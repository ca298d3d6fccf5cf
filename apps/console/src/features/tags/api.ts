import type { ConversationSummaryDto, Page, TagDto, TagType, TopicDto } from '@kefu/protocol';
import { get, post } from '../../lib/api';

export const tagsApi = {
  list: (tagtype?: TagType, signal?: AbortSignal) => get<TagDto[]>('/tags', { tagtype }, signal),
  page: (q: { tagtype: TagType; q?: string; p: number; ps: number }, signal?: AbortSignal) =>
    get<Page<TagDto>>('/tag/page', q, signal),
  save: (b: { name: string; color: string; tagtype: TagType }) => post<TagDto>('/tag/save', b),
  update: (b: { id: string; name: string; color: string }) => post<TagDto>('/tag/update', b),
  remove: (id: string) => post<null>('/tag/delete', { id }),
  /** Puts the tag on (or takes it off) a conversation. */
  relate: (agentserviceid: string, tagid: string, checked: boolean) =>
    post<null>('/talk/tagrelation', { agentserviceid, tagid, checked }),
};

export const topicsApi = {
  list: (signal?: AbortSignal) => get<TopicDto[]>('/sessionType', undefined, signal),
  save: (b: { id?: string; name: string; parentid?: string | null }) => post<TopicDto>('/topic/save', b),
  remove: (id: string) => post<{ deleted: number }>('/topic/delete', { id }),
  summary: (agentserviceid: string, b: { topicid?: string | null; memo?: string }) =>
    post<ConversationSummaryDto>('/talk/summary', { agentserviceid, ...b }),
};
