import type { KbItemDto, KbTopicRef, KbTypeDto } from '@kefu/protocol';
import type { KbItemRow, KbTypeRow } from './kb.repository.js';
import { parseSimilar } from './kb.index.js';

export const presentType = (t: KbTypeRow, items: number): KbTypeDto => ({
  id: t.id,
  name: t.name,
  parentid: t.parentid,
  sortindex: Number(t.sortindex),
  items,
});

const num = (v: number | null): number | null => (v === null ? null : Number(v));

export function isActive(i: Pick<KbItemRow, 'enabled' | 'begintime' | 'endtime'>, now: number): boolean {
  const b = num(i.begintime);
  const e = num(i.endtime);
  return i.enabled === 1 && (b === null || b <= now) && (e === null || e >= now);
}

export const presentItem = (
  i: KbItemRow,
  extra: { typename: string; topics: KbTopicRef[]; creater: string },
  now: number,
): KbItemDto => ({
  id: i.id,
  typeid: i.typeid,
  typename: extra.typename,
  question: i.question,
  similar: parseSimilar(i.similar),
  answer: i.answer,
  enabled: i.enabled === 1,
  begintime: num(i.begintime),
  endtime: num(i.endtime),
  active: isActive(i, now),
  topics: extra.topics,
  hits: Number(i.hits),
  creater: extra.creater,
  createtime: Number(i.createtime),
  updatetime: Number(i.updatetime),
});
