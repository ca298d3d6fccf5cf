import type { QuickReplyDto, QuickScope, QuickTypeDto } from '@kefu/protocol';
import { get, post, postForMsg } from '../../lib/api';
import { treeData } from '../../lib/tree';

export interface QuickReplyFilter {
  type: QuickScope;
  cate?: string;
  q?: string;
}

export const quickReplyApi = {
  types: (type: QuickScope, signal?: AbortSignal) => get<QuickTypeDto[]>('/quicktype', { type }, signal),
  replies: (f: QuickReplyFilter, signal?: AbortSignal) =>
    get<QuickReplyDto[]>('/quickreply', { type: f.type, cate: f.cate, q: f.q }, signal),
  saveType: (b: { name: string; parentid?: string | null; type: QuickScope }) =>
    post<QuickTypeDto>('/agent/quickreply/type/save', b),
  updateType: (b: { id: string; name: string; parentid?: string | null }) =>
    post<QuickTypeDto>('/agent/quickreply/type/update', b),
  removeType: (id: string) => postForMsg('/agent/quickreply/deletetype', { id }),
  save: (b: { title: string; content: string; cate?: string | null; type: QuickScope }) =>
    post<QuickReplyDto>('/agent/quickreply/save', b),
  update: (b: { id: string; title: string; content: string; cate?: string | null }) =>
    post<QuickReplyDto>('/agent/quickreply/update', b),
  remove: (id: string) => postForMsg('/agent/quickreply/delete', { id }),
  removeMany: (ids: string[]) => postForMsg('/agent/quickreply/batdel/reply', { ids }),
  rank: (ids: string[]) => post<QuickReplyDto[]>('/agent/quick/rank', { ids }),
};

export type { TreeNode as TypeNode } from '../../lib/tree';
/** Flat types (by parentid) → antd tree data; `exclude` drops a type and its subtree (parent pickers). */
export const typeTree = (types: QuickTypeDto[], exclude?: string) => treeData(types, exclude);
