import type {
  QualityAppealDto,
  QualityAppealMessageDto,
  QualityFindingDto,
  QualityItemKind,
  QualityLabelDto,
  QualityLabelTypeDto,
  QualityRule,
  QualityRowDto,
  QualityStatus,
  QualityAppealOutcome,
  QualityAppealState,
} from '@kefu/protocol';
import type { Selectable } from 'kysely';
import type {
  QualityAppealItemTable,
  QualityAppealMessageTable,
  QualityFindingTable,
} from '../../platform/db/schema-quality.js';
import type { AppealRow, InspectionRow, LabelRow, TypeRow } from './quality.repository.js';

export const ids = (json: string): string[] => {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

export const presentType = (t: TypeRow, items: number): QualityLabelTypeDto => ({
  id: t.id,
  name: t.name,
  base: t.base,
  passmark: t.passmark,
  isdefault: t.isdefault === 1,
  version: t.version,
  sort: t.sort,
  items,
  createtime: Number(t.createtime),
  updatetime: Number(t.updatetime),
});

export const presentLabel = (l: LabelRow): QualityLabelDto => ({
  id: l.id,
  typeid: l.typeid,
  groupname: l.groupname,
  name: l.name,
  description: l.description,
  kind: l.kind as QualityItemKind,
  points: l.points,
  fatal: l.fatal === 1,
  sort: l.sort,
  createtime: Number(l.createtime),
  updatetime: Number(l.updatetime),
});

export const presentFinding = (f: Selectable<QualityFindingTable>): QualityFindingDto => ({
  id: f.id,
  agentserviceid: f.agentserviceid,
  rule: f.rule as QualityRule,
  messageids: ids(f.messageids),
  value: Number(f.value),
  detail: f.detail,
  points: f.points,
  createtime: Number(f.createtime),
});

const num = (v: number | null): number | null => (v === null ? null : Number(v));

/** Conversation facts and names joined to an inspection for lists and detail. */
export interface RowExtra {
  agentusername: string;
  organname: string;
  inspectorname: string;
  cardname: string;
  username: string;
  channel: string;
}

export const presentRow = (r: InspectionRow, x: RowExtra): QualityRowDto => ({
  id: r.id,
  agentserviceid: r.agentserviceid,
  agentno: r.agentno,
  agentusername: x.agentusername,
  organ: r.organ,
  organname: x.organname,
  inspector: r.inspector,
  inspectorname: x.inspectorname,
  status: r.status as QualityStatus,
  score: num(r.score),
  pass: r.pass === null ? null : Number(r.pass) === 1,
  fatal: Number(r.fatal) === 1,
  autopoints: Number(r.autopoints),
  typeid: r.typeid,
  version: r.version,
  cardname: x.cardname,
  username: x.username,
  channel: x.channel,
  convtime: Number(r.convtime),
  allottime: Number(r.allottime),
  scoretime: num(r.scoretime),
  sendtime: num(r.sendtime),
  appealuntil: num(r.appealuntil),
  appeal: (r.appeal as QualityAppealState | null) ?? null,
  seen: Number(r.seen) === 1,
});

export const presentAppeal = (
  a: AppealRow,
  items: Array<Selectable<QualityAppealItemTable>>,
  messages: QualityAppealMessageDto[],
): QualityAppealDto => ({
  id: a.id,
  inspectionid: a.inspectionid,
  agentno: a.agentno,
  state: a.state as QualityAppealState,
  outcome: (a.outcome as QualityAppealOutcome | null) ?? null,
  reason: a.reason,
  items: items.map((i) => ({ labelid: i.labelid, reason: i.reason, before: i.oldscore, after: i.newscore })),
  messages,
  scorebefore: a.scorebefore,
  scoreafter: a.scoreafter,
  resolver: a.resolver,
  resolvecomment: a.resolvecomment,
  createtime: Number(a.createtime),
  submittime: num(a.submittime),
  reviewtime: num(a.reviewtime),
  resolvetime: num(a.resolvetime),
});

export const presentAppealMessage = (
  m: Selectable<QualityAppealMessageTable>,
  username: string,
): QualityAppealMessageDto => ({
  id: m.id,
  appealid: m.appealid,
  userid: m.userid,
  username,
  role: m.role as QualityAppealMessageDto['role'],
  text: m.text,
  createtime: Number(m.createtime),
});
