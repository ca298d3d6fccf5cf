import type { ConversationSummaryDto, TagDto, TagType, TopicDto } from '@kefu/protocol';
import type { TagRow, TopicRow } from './tags.repository.js';

export const presentTag = (t: TagRow, times?: number): TagDto => ({
  id: t.id,
  name: t.name,
  color: t.color,
  tagtype: t.tagtype as TagType,
  sortindex: Number(t.sortindex),
  ...(times === undefined ? {} : { times, createtime: Number(t.createtime) }),
});

export const presentTopic = (t: TopicRow): TopicDto => ({
  id: t.id,
  name: t.name,
  parentid: t.parentid || null,
  sortindex: Number(t.sortindex),
  createtime: Number(t.createtime),
});

export const presentSummary = (
  s: { topicid: string | null; summary: string; summarytime: number | null },
  topic: TopicRow | undefined,
): ConversationSummaryDto => ({
  topicid: topic ? s.topicid : null,
  topicname: topic?.name ?? '',
  memo: s.summary,
  updatetime: s.summarytime === null ? null : Number(s.summarytime),
});
