import type { Generated } from 'kysely';

/** Tables of migration 0018_quality. Times are epoch ms; booleans 0/1; lists JSON text. */
export interface QualityTypeTable {
  id: string;
  orgi: string;
  name: string;
  base: number;
  passmark: number;
  isdefault: Generated<number>;
  version: Generated<number>;
  sort: Generated<number>;
  createtime: number;
  updatetime: number;
}

export interface QualityLabelTable {
  id: string;
  orgi: string;
  typeid: string;
  groupname: Generated<string>;
  name: string;
  description: Generated<string>;
  kind: string;
  points: number;
  fatal: Generated<number>;
  sort: Generated<number>;
  createtime: number;
  updatetime: number;
}

/** A card frozen at one version: QualityScorecardDto as JSON. */
export interface QualityCardVersionTable {
  id: string;
  orgi: string;
  typeid: string;
  version: number;
  card: string;
  createtime: number;
}

export interface QualitySkillTable {
  organ: string;
  orgi: string;
  typeid: string;
  updatetime: number;
}

export interface QualityInspectionTable {
  id: string;
  orgi: string;
  agentserviceid: string;
  agentno: string;
  organ: string | null;
  inspector: string;
  /** allotted | done | sent */
  status: string;
  typeid: string;
  versionid: string;
  version: number;
  score: number | null;
  pass: number | null;
  fatal: Generated<number>;
  comment: Generated<string>;
  autopoints: Generated<number>;
  /** The conversation's end. */
  convtime: number;
  allottime: number;
  allotby: string;
  scoretime: number | null;
  sendtime: number | null;
  appealuntil: number | null;
  /** State of the latest appeal. */
  appeal: string | null;
  seen: Generated<number>;
  reminded: Generated<number>;
}

export interface QualityItemTable {
  inspectionid: string;
  labelid: string;
  score: number;
  messageids: Generated<string>;
  comment: Generated<string>;
}

export interface QualityFindingTable {
  id: string;
  orgi: string;
  agentserviceid: string;
  rule: string;
  messageids: Generated<string>;
  value: Generated<number>;
  detail: Generated<string>;
  points: Generated<number>;
  createtime: number;
}

export interface QualityConvTable {
  agentserviceid: string;
  orgi: string;
  autopoints: Generated<number>;
  /** Rules with findings, comma-separated. */
  rules: Generated<string>;
  scanned: Generated<number>;
  excluded: Generated<number>;
  updatetime: number;
}

export interface QualityAppealTable {
  id: string;
  orgi: string;
  inspectionid: string;
  agentno: string;
  inspector: string;
  state: string;
  outcome: string | null;
  reason: Generated<string>;
  scorebefore: number;
  scoreafter: number | null;
  resolver: string | null;
  resolvecomment: Generated<string>;
  createtime: number;
  submittime: number | null;
  reviewtime: number | null;
  resolvetime: number | null;
}

export interface QualityAppealItemTable {
  appealid: string;
  inspectionid: string;
  labelid: string;
  reason: string;
  oldscore: number;
  newscore: number | null;
}

export interface QualityAppealMessageTable {
  id: string;
  orgi: string;
  appealid: string;
  userid: string;
  role: string;
  text: string;
  createtime: number;
}

export interface QualityEventTable {
  id: string;
  orgi: string;
  inspectionid: string;
  appealid: string | null;
  action: string;
  userid: string;
  detail: Generated<string>;
  createtime: number;
}

/** Migration 0019: the pre-scoring sweep's watermark and lease (one row per sweep, by name). */
export interface QualitySweepTable {
  name: string;
  mark: number;
  owner: Generated<string>;
  lease: Generated<number>;
  updatetime: number;
}

/** Migration 0022: the inspector's decision on an automatic finding (one per inspection and finding). */
export interface QualityDecisionTable {
  inspectionid: string;
  findingid: string;
  orgi: string;
  rule: string;
  /** confirmed | overridden. */
  decision: string;
  /** The finding's suggested points when decided. */
  autopoints: number;
  /** overridden: the inspector's points; confirmed: null. */
  points: number | null;
  reason: Generated<string>;
  userid: string;
  createtime: number;
}

export interface QualityTables {
  quality_type: QualityTypeTable;
  quality_label: QualityLabelTable;
  quality_card_version: QualityCardVersionTable;
  quality_skill: QualitySkillTable;
  quality_inspection: QualityInspectionTable;
  quality_item: QualityItemTable;
  quality_finding: QualityFindingTable;
  quality_conv: QualityConvTable;
  quality_appeal: QualityAppealTable;
  quality_appeal_item: QualityAppealItemTable;
  quality_appeal_message: QualityAppealMessageTable;
  quality_event: QualityEventTable;
  quality_sweep: QualitySweepTable;
  quality_decision: QualityDecisionTable;
}
