import {
  QUALITY_API,
  type ExportJobDto,
  type Page,
  type QualityAllotFilters,
  type QualityAllotResultDto,
  type QualityAllotRuleDto,
  type QualityAppealDto,
  type QualityAppealMessageDto,
  type QualityAppealOutcome,
  type QualityAppealRowDto,
  type QualityAppealState,
  type QualityBatchFormDto,
  type QualityCandidateDto,
  type QualityCountDto,
  type QualityDetailDto,
  type QualityItemResultDto,
  type QualityLabelDto,
  type QualityLabelTypeDto,
  type QualityPeriod,
  type QualityRowDto,
  type QualityScorecardDto,
  type QualitySettingsDto,
  type QualitySkillCardDto,
  type QualitySuggestDto,
  type QualityFindingDecision,
  type QualityStatus,
  type QualityTranscriptDto,
} from '@kefu/protocol';
import { get, post, request } from '../../lib/api';
import type { Query } from '../../lib/request';
import { exportOptions } from '../../components/exportApi';

type Paged = { p: number; ps: number };

/** Conversation end time range and who: the filter shared by the assignment and inspection lists. */
export interface RangeFilter {
  begin?: number;
  end?: number;
  organ?: string;
  agentno?: string;
}
export interface NotAllotFilter extends RangeFilter {
  rule?: string;
}
export interface AllotFilter extends RangeFilter {
  inspector?: string;
  status?: QualityStatus;
}
export interface InspectFilter extends AllotFilter {
  pass?: boolean;
  fatal?: boolean;
  appeal?: QualityAppealState;
  minscore?: number;
  maxscore?: number;
  typeid?: string;
}
export interface StaffFilter {
  begin?: number;
  end?: number;
  appeal?: QualityAppealState;
}
export interface AppealFilter {
  state?: QualityAppealState;
  agentno?: string;
}

/** What the card and item forms send (the DTOs' own fields). */
export type CardFields = Pick<QualityLabelTypeDto, 'name' | 'base' | 'passmark' | 'isdefault' | 'sort'>;
export type ItemFields = Pick<
  QualityLabelDto,
  'groupname' | 'name' | 'description' | 'kind' | 'points' | 'fatal' | 'sort'
>;
export type ItemScore = QualityItemResultDto;
export interface AutomationFields {
  begin?: number;
  end?: number;
  share: number;
  percent: boolean;
  period: QualityPeriod;
  filters: QualityAllotFilters;
  inspectors: string[];
  save?: boolean;
}

const q = (v: object): Query => ({ ...v }) as Query;
const A = QUALITY_API;

/** /api/quality/* and the skill-group binding (issue 17; paths and shapes in @kefu/protocol quality.ts). */
export const qualityApi = {
  // Scorecards (A09_A03_A12).
  cards: (signal?: AbortSignal) => get<QualityLabelTypeDto[]>(A.labelTypeList, undefined, signal),
  card: (id: string, signal?: AbortSignal) => get<QualityScorecardDto>(A.labelTypeForm, { id }, signal),
  saveCard: (b: CardFields) => post<QualityLabelTypeDto>(A.labelTypeSave, b),
  updateCard: (b: Partial<CardFields> & { id: string }) => post<QualityLabelTypeDto>(A.labelTypeUpdate, b),
  removeCard: (id: string) => post<null>(A.labelTypeDelete, { id }),
  items: (typeid: string, signal?: AbortSignal) => get<QualityLabelDto[]>(A.labelList, { typeid }, signal),
  saveItem: (b: ItemFields & { typeid: string }) => post<QualityLabelDto>(A.labelSave, b),
  updateItem: (b: Partial<ItemFields> & { id: string }) => post<QualityLabelDto>(A.labelUpdate, b),
  removeItem: (id: string) => post<null>(A.labelDelete, { id }),
  skillCards: (signal?: AbortSignal) => get<QualitySkillCardDto[]>(A.skillQualityList, undefined, signal),
  bindSkill: (organ: string, typeid: string | null) => post<null>(A.skillQualitySave, { organ, typeid }),
  settings: (signal?: AbortSignal) => get<QualitySettingsDto>(A.settings, undefined, signal),
  saveSettings: (b: Partial<QualitySettingsDto>) => post<QualitySettingsDto>(A.settingsSave, b),

  // Assignment (A11_A02).
  allotted: (f: AllotFilter & Paged, signal?: AbortSignal) =>
    get<Page<QualityRowDto>>(A.allotList, q(f), signal),
  notAllotted: (f: NotAllotFilter & Paged, signal?: AbortSignal) =>
    get<Page<QualityCandidateDto>>(A.notAllotList, q(f), signal),
  exclude: (ids: string[], exclude = true) => post<unknown>(A.notQuality, { ids, exclude }),
  automation: (b: AutomationFields) => post<QualityAllotResultDto>(A.allotAutomation, b),
  automationAgain: (b: AutomationFields) => post<QualityAllotResultDto>(A.allotAutomationAgain, b),
  manual: (ids: string[], inspectors: string[]) =>
    post<QualityAllotResultDto>(A.allotManual, { ids, inspectors }),
  manualAgain: (ids: string[], inspectors: string[]) =>
    post<QualityAllotResultDto>(A.allotManualAgain, { ids, inspectors }),
  rule: (signal?: AbortSignal) => get<QualityAllotRuleDto | null>(A.allotRule, undefined, signal),
  inspectors: (signal?: AbortSignal) =>
    get<Array<{ id: string; name: string }>>(A.inspectors, undefined, signal),

  // Inspection (A11_A01).
  list: (f: InspectFilter & Paged, signal?: AbortSignal) => get<Page<QualityRowDto>>(A.list, q(f), signal),
  detail: (id: string, signal?: AbortSignal) => get<QualityDetailDto>(A.detail, { id }, signal),
  read: (id: string, after: number, signal?: AbortSignal) =>
    get<QualityTranscriptDto>(A.read, { id, after }, signal),
  /** The visitor's other conversations; quiet, since the agent's own view may not read them. */
  multiterm: (id: string, signal?: AbortSignal) =>
    request<QualityTranscriptDto[]>(A.readMultiterm, { params: { id }, signal, silent: true }),
  count: (signal?: AbortSignal) => get<QualityCountDto>(A.count, undefined, signal),
  save: (b: {
    id: string;
    items: ItemScore[];
    decisions?: Array<{
      findingid: string;
      decision: QualityFindingDecision;
      points?: number;
      reason: string;
    }>;
    comment: string;
    send: boolean;
  }) => post<QualityDetailDto>(A.save, b),
  /** Suggested item scores from the configured AI service (nothing is saved). */
  suggest: (id: string) => post<QualitySuggestDto>(A.suggest, { id }),
  saveBatch: (b: { ids: string[]; items: ItemScore[]; comment: string; send: boolean }) =>
    post<{ saved: number }>(A.saveBatch, b),
  batchForm: (ids: string[], signal?: AbortSignal) =>
    get<QualityBatchFormDto>(A.saveBatchForm, { ids: ids.join(',') }, signal),
  exportAll: (f: InspectFilter) => post<ExportJobDto>(A.expall, { ...f, ...exportOptions() }),
  exportIds: (ids: string[]) => post<ExportJobDto>(A.expIds, { ids, ...exportOptions() }),

  // The agent's own results and appeals.
  staff: (f: StaffFilter & Paged, signal?: AbortSignal) =>
    get<Page<QualityRowDto>>(A.staffList, q(f), signal),
  appeal: (b: {
    inspectionid?: string;
    id?: string;
    reason: string;
    items: Array<{ labelid: string; reason: string }>;
    submit: boolean;
  }) => post<QualityAppealDto>(A.appealSave, b),
  appealMessage: (appealid: string, text: string) =>
    post<QualityAppealMessageDto>(A.appealMessageSave, { appealid, text }),
  endAppeal: (b: {
    id: string;
    outcome: QualityAppealOutcome;
    items: Array<{ labelid: string; score: number }>;
    comment: string;
  }) => post<QualityAppealDto>(A.appealEnd, b),
  endAppeals: (ids: string[], outcome: 'upheld' | 'rejected', comment: string) =>
    post<{ ended: number }>(A.appealBatch, { ids, outcome, comment }),
  appeals: (f: AppealFilter & Paged, signal?: AbortSignal) =>
    get<Page<QualityAppealRowDto>>(A.appealList, q(f), signal),
};
