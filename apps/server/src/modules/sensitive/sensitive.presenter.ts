import type { SensitiveAction, SensitiveHitDto, SensitiveKind, SensitiveWordDto } from '@kefu/protocol';
import type { HitRow, WordRow } from './sensitive.repository.js';

export const presentWord = (r: WordRow): SensitiveWordDto => ({
  id: r.id,
  kind: r.kind as SensitiveKind,
  word: r.word,
  action: r.action as SensitiveAction,
  creater: r.creater,
  createtime: Number(r.createtime),
  updatetime: Number(r.updatetime),
});

export const presentHit = (r: HitRow): SensitiveHitDto => ({
  id: r.id,
  agentserviceid: r.agentserviceid,
  messageid: r.messageid,
  side: r.side as SensitiveKind,
  action: r.action as SensitiveAction,
  words: r.words ? r.words.split('\n') : [],
  createtime: Number(r.createtime),
});
