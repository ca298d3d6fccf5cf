import type { QuickReplyDto, QuickScope, QuickTypeDto } from '@kefu/protocol';
import type { QuickReplyRow, QuickTypeRow } from './quickreply.repository.js';

export const presentType = (t: QuickTypeRow): QuickTypeDto => ({
  id: t.id,
  name: t.name,
  parentid: t.parentid || null,
  type: t.type as QuickScope,
  creater: t.creater,
  sortindex: Number(t.sortindex),
});

export const presentReply = (r: QuickReplyRow): QuickReplyDto => ({
  id: r.id,
  title: r.title,
  content: r.content,
  cate: r.cate || null,
  type: r.type as QuickScope,
  creater: r.creater,
  sortindex: Number(r.sortindex),
  createtime: Number(r.createtime),
  updatetime: Number(r.updatetime),
});
