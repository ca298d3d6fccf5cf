import type { Generated } from 'kysely';

/** Tables of migration 0005_quickreply. owner '' = public; parentid / cate '' = none. */
export interface QuickTypeTable {
  id: string;
  orgi: string;
  name: string;
  parentid: string;
  type: string;
  owner: string;
  creater: string;
  sortindex: Generated<number>;
  createtime: number;
  updatetime: number;
}

export interface QuickReplyTable {
  id: string;
  orgi: string;
  title: string;
  content: string;
  cate: string;
  type: string;
  owner: string;
  creater: string;
  sortindex: Generated<number>;
  createtime: number;
  updatetime: number;
}

export interface QuickReplyTables {
  quick_type: QuickTypeTable;
  quick_reply: QuickReplyTable;
}
