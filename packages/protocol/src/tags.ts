/**
 * Tags (/setup/label, A09_A03_A07), service topics (/setup/service, A09_A03_A08) and the service summary
 * of a conversation (topic + memo + its tags). See docs/api.md "Tags, topics and the summary".
 */
export const TAG_ADMIN_CODE = 'A09_A03_A07';
export const TOPIC_ADMIN_CODE = 'A09_A03_A08';

/**
 * What a tag marks (the original's `tagtype`): `summary` tags go on conversations (the chat's tag list,
 * history filter), `user` tags on contacts.
 */
export const TAG_TYPES = ['summary', 'user'] as const;
export type TagType = (typeof TAG_TYPES)[number];

/** Preset colours offered by the tag form (any #RRGGBB is accepted). */
export const TAG_COLORS = [
  '#2C68FF',
  '#13C2C2',
  '#52C41A',
  '#FAAD14',
  '#FA541C',
  '#F5222D',
  '#EB2F96',
  '#722ED1',
  '#8C8C8C',
] as const;

export const TAG_LIMITS = { name: 20, memo: 1000, topicName: 50, topicDepth: 5 } as const;

export interface TagDto {
  id: string;
  name: string;
  color: string;
  tagtype: TagType;
  sortindex: number;
  /** Conversations or contacts carrying it. Only in the setup list (tag/page). */
  times?: number;
  createtime?: number;
}

export interface TopicDto {
  id: string;
  name: string;
  /** null at the top of the tree. */
  parentid: string | null;
  sortindex: number;
  createtime: number;
}

/** The service summary of a conversation. */
export interface ConversationSummaryDto {
  topicid: string | null;
  /** '' when no topic (or a deleted one). */
  topicname: string;
  memo: string;
  updatetime: number | null;
}
