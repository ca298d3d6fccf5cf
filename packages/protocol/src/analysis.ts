import { z } from 'zod';
import { optionalText, flag, LIMITS } from './schemas/fields.js';
import { CHANNELS } from './constants.js';

/**
 * Statistics and data analysis (/dataAnalysis, A06; GET /api/analyse/<call>). Every figure is defined once
 * in docs/metrics.md; the console shows the same definition (i18n `analysis.def.<figure>`). Dates are
 * local calendar days of the tenant's time zone (`YYYY-MM-DD`, both ends included).
 */

export const ANALYSIS_LIMITS = {
  /** The longest range one call answers (a year, leap day included). */
  maxDays: 366,
  /** Rows of a table beyond which the rest is folded into "other" (keywords, cities). */
  maxRows: 200,
} as const;

/** Additive figures: a bucket's value is a count or a sum that adds up across buckets and rows. */
export const COUNT_FIGURES = [
  'conversations',
  'effective',
  'served',
  'abandoned',
  'transfers',
  'asked',
  'rated',
  'satisfied',
  'messagesIn',
  'messagesOut',
  'aiConversations',
  'aiToAgent',
  'aiOnly',
  'visits',
  'visitors',
  'invited',
  'inviteAccepted',
  'tagged',
  'ratings',
  'signedIn',
  'ready',
  'busy',
  'notReady',
  // Quality inspection (issue 17): inspections scored, passed, failed by a fatal item; appeals opened and
  // upheld (fully or partly); items deducted (label/quality) and the points they took.
  'inspected',
  'passed',
  'fatalFails',
  'appealsOpened',
  'appealsUpheld',
  'deducted',
  'deductedPoints',
] as const;
/** Averages and rates, computed from sums of the additive parts (never an average of averages). */
export const DERIVED_FIGURES = [
  'firstResponse',
  'responseTime',
  'servingTime',
  'waitingTime',
  'satisfactionRate',
  'responseRate',
  'effectiveRate',
  'inviteRate',
  /** Σ final score ÷ inspected. */
  'avgScore',
  /** passed ÷ inspected. */
  'passRate',
  /** Average time from an appeal's submission to its resolution (ms). */
  'appealResolve',
  /** Inspector calibration: mean absolute gap between an inspector's score and the other inspectors' on the same conversations. */
  'scoreSpread',
  /** Automatic findings the inspector overrode ÷ automatic findings decided (docs/metrics.md). */
  'autoOverrideRate',
] as const;
export type CountFigure = (typeof COUNT_FIGURES)[number];
export type DerivedFigure = (typeof DERIVED_FIGURES)[number];
export type Figure = CountFigure | DerivedFigure;

/** How a figure is shown: a number, a duration in ms, or a ratio 0..1. */
export const FIGURE_FORMAT: Record<Figure, 'count' | 'ms' | 'rate'> = {
  conversations: 'count',
  effective: 'count',
  served: 'count',
  abandoned: 'count',
  transfers: 'count',
  asked: 'count',
  rated: 'count',
  satisfied: 'count',
  messagesIn: 'count',
  messagesOut: 'count',
  aiConversations: 'count',
  aiToAgent: 'count',
  aiOnly: 'count',
  visits: 'count',
  visitors: 'count',
  invited: 'count',
  inviteAccepted: 'count',
  tagged: 'count',
  ratings: 'count',
  signedIn: 'ms',
  ready: 'ms',
  busy: 'ms',
  notReady: 'ms',
  firstResponse: 'ms',
  responseTime: 'ms',
  servingTime: 'ms',
  waitingTime: 'ms',
  satisfactionRate: 'rate',
  responseRate: 'rate',
  effectiveRate: 'rate',
  inviteRate: 'rate',
  inspected: 'count',
  passed: 'count',
  fatalFails: 'count',
  appealsOpened: 'count',
  appealsUpheld: 'count',
  deducted: 'count',
  deductedPoints: 'count',
  avgScore: 'count',
  passRate: 'rate',
  appealResolve: 'ms',
  scoreSpread: 'count',
  autoOverrideRate: 'rate',
};

/** Which filters a call accepts. */
export type AnalysisFilter = 'organ' | 'agentno' | 'channel' | 'appid';

export interface AnalysisCallDef {
  code: string;
  /** Row dimensions; the first is the default. */
  dims: readonly string[];
  figures: readonly Figure[];
  filters: readonly AnalysisFilter[];
  /** Figures drawn as the chart's series (additive ones). */
  chart: readonly CountFigure[];
  /** Department scope applies (work statistics); visitor analyses cover the whole tenant. */
  scoped: boolean;
}

const CONV: readonly Figure[] = [
  'conversations',
  'effective',
  'effectiveRate',
  'abandoned',
  'transfers',
  'firstResponse',
  'responseTime',
  'servingTime',
  'waitingTime',
  'messagesIn',
  'messagesOut',
  'asked',
  'rated',
  'satisfied',
  'satisfactionRate',
  'responseRate',
];
const ALL_FILTERS: readonly AnalysisFilter[] = ['organ', 'agentno', 'channel', 'appid'];
const WORK: readonly Figure[] = ['signedIn', 'ready', 'busy', 'notReady'];

/** The /api/analyse calls of spec section 7 that draw a chart (loginLogs/exLoginLogs are the login log's). */
export const ANALYSIS_CALLS = {
  searcheEngine: {
    code: 'A06_A01_A01',
    dims: ['engine', 'keyword'],
    figures: ['visits', 'conversations'],
    filters: ['appid'],
    chart: ['visits', 'conversations'],
    scoped: false,
  },
  organDegree: {
    code: 'A06_A02_A01',
    dims: ['organ'],
    figures: CONV,
    filters: ALL_FILTERS,
    chart: ['conversations', 'effective'],
    scoped: true,
  },
  userDegree: {
    code: 'A06_A02_A02',
    dims: ['agent'],
    figures: CONV,
    filters: ALL_FILTERS,
    chart: ['conversations', 'effective'],
    scoped: true,
  },
  dereeList: {
    code: 'A06_A02_A03',
    dims: ['level', 'agent', 'organ', 'opinion'],
    figures: ['asked', 'rated', 'satisfied', 'satisfactionRate', 'responseRate'],
    filters: ALL_FILTERS,
    chart: ['rated', 'satisfied'],
    scoped: true,
  },
  workLog: {
    code: 'A06_A02_A04',
    dims: ['agent'],
    figures: WORK,
    filters: ['organ', 'agentno'],
    chart: ['signedIn', 'ready', 'busy'],
    scoped: true,
  },
  workLogList: {
    code: 'A06_A02_A04',
    dims: ['agentday'],
    figures: WORK,
    filters: ['organ', 'agentno'],
    chart: ['signedIn', 'ready', 'busy'],
    scoped: true,
  },
  workOrganLog: {
    code: 'A06_A02_A07',
    dims: ['organ'],
    figures: WORK,
    filters: ['organ'],
    chart: ['signedIn', 'ready', 'busy'],
    scoped: true,
  },
  /** Inspections by the day they were scored (final score, i.e. after resolved appeals). */
  quality: {
    code: 'A06_A02_A05',
    dims: ['agent', 'organ', 'inspector'],
    figures: [
      'inspected',
      'avgScore',
      'passed',
      'passRate',
      'fatalFails',
      'appealsOpened',
      'appealsUpheld',
      'appealResolve',
      'scoreSpread',
      'autoOverrideRate',
    ],
    filters: ['organ', 'agentno'],
    chart: ['inspected', 'passed'],
    scoped: true,
  },
  /** Items deducted on inspections scored in the range (final scores), by item or by card. */
  'label/quality': {
    code: 'A06_A02_A06',
    dims: ['label', 'type'],
    figures: ['deducted', 'deductedPoints', 'inspected'],
    filters: ['organ', 'agentno'],
    chart: ['deducted'],
    scoped: true,
  },
  regionList: {
    code: 'A06_A03_A01',
    dims: ['province', 'city'],
    figures: ['visits', 'conversations', 'effective'],
    filters: ['appid'],
    chart: ['visits', 'conversations'],
    scoped: false,
  },
  browserData: {
    code: 'A06_A03_A02',
    dims: ['browser'],
    figures: ['visits', 'conversations', 'effective'],
    filters: ['appid'],
    chart: ['visits', 'conversations'],
    scoped: false,
  },
  osnameData: {
    code: 'A06_A03_A03',
    dims: ['os'],
    figures: ['visits', 'conversations', 'effective'],
    filters: ['appid'],
    chart: ['visits', 'conversations'],
    scoped: false,
  },
  labelList: {
    code: 'A06_A03_A04',
    dims: ['tag'],
    figures: ['tagged'],
    filters: ['channel', 'appid'],
    chart: ['tagged'],
    scoped: false,
  },
  visitor: {
    code: 'A06_A03_A05',
    dims: ['hour', 'weekday'],
    figures: ['visits', 'conversations', 'effective'],
    filters: ['appid'],
    chart: ['visits', 'conversations'],
    scoped: false,
  },
  channelCount: {
    code: 'A06_A03_A06',
    dims: ['channel'],
    figures: ['conversations', 'effective', 'effectiveRate', 'abandoned'],
    filters: ['appid'],
    chart: ['conversations', 'effective'],
    scoped: false,
  },
  snsidCount: {
    code: 'A06_A03_A07',
    dims: ['appid'],
    figures: ['visits', 'conversations', 'effective', 'invited', 'inviteAccepted', 'inviteRate'],
    filters: ['channel'],
    chart: ['visits', 'conversations'],
    scoped: false,
  },
  dateCount: {
    code: 'A06_A03_A08',
    dims: ['day'],
    figures: [
      'visits',
      'visitors',
      'conversations',
      'effective',
      'abandoned',
      'invited',
      'inviteAccepted',
      'inviteRate',
    ],
    filters: ['channel', 'appid'],
    chart: ['visits', 'conversations', 'effective'],
    scoped: false,
  },
  aiDegree: {
    code: 'A06_A04_A01',
    dims: ['day'],
    figures: ['aiConversations', 'aiToAgent', 'aiOnly'],
    filters: ['channel', 'appid'],
    chart: ['aiConversations', 'aiToAgent'],
    scoped: false,
  },
} as const satisfies Record<string, AnalysisCallDef>;

export type AnalysisCall = keyof typeof ANALYSIS_CALLS;
export const ANALYSIS_CALL_NAMES = Object.keys(ANALYSIS_CALLS) as AnalysisCall[];
/** Every A06 code that reads an analysis (the export kind `analysis` needs one of them). */
export const ANALYSIS_CODES: readonly string[] = [
  ...new Set(Object.values(ANALYSIS_CALLS).map((c) => c.code as string)),
];

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day `YYYY-MM-DD` that exists (2025-02-30 is refused). */
export const localDate = () =>
  z.string({ error: 'required' }).refine((s) => {
    if (!LOCAL_DATE.test(s)) return false;
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'invalid_field');

/**
 * The query of every analysis call. `dim` is checked against the call's dimensions by the server
 * (dimension_unknown); the range (range_invalid when reversed, range_too_long beyond maxDays) too.
 */
export const analysisQuery = z.object({
  begin: localDate(),
  end: localDate(),
  dim: optionalText(20),
  organ: optionalText(LIMITS.id),
  agentno: optionalText(LIMITS.id),
  channel: z.enum(CHANNELS, { error: 'invalid_field' }).optional(),
  appid: optionalText(LIMITS.id),
  /** Also answer the same figures for the period of the same length just before. */
  compare: flag().optional(),
});
export type AnalysisQuery = z.input<typeof analysisQuery>;

/** POST /api/analyse/export: the table of one call as an .xlsx job (ExportJobDto). */
export const analysisExportBody = analysisQuery.extend({
  call: z.enum(ANALYSIS_CALL_NAMES as [AnalysisCall, ...AnalysisCall[]], { error: 'invalid_field' }),
  tz: z.coerce.number({ error: 'invalid_field' }).int().min(-840).max(840).default(0),
  /** The language the sheet is headed in: the console's (else the user's saved language). */
  lang: z.enum(['zh', 'en'], { error: 'invalid_field' }).optional(),
});

/** GET /api/analyse/options: what the filters of one call's screen can offer the caller (within its scope). */
export const analysisOptionsQuery = z.object({
  call: z.enum(ANALYSIS_CALL_NAMES as [AnalysisCall, ...AnalysisCall[]], { error: 'invalid_field' }),
});

export interface AnalysisOptionsDto {
  /** The tenant's time zone: "today" of the date presets is today there. */
  timezone: string;
  organs: Array<{ id: string; name: string }>;
  agents: Array<{ id: string; name: string; organ: string | null }>;
  appids: Array<{ id: string; name: string }>;
}

export type Figures = Partial<Record<Figure, number | null>>;

export interface AnalysisRowDto {
  /** The dimension value (agent id, department id, day, hour, browser name…; '' = unknown). */
  key: string;
  /** What to show for it (a name when the key is an id); '' for unknown. */
  name: string;
  figures: Figures;
}

export interface AnalysisResultDto {
  call: AnalysisCall;
  dim: string;
  begin: string;
  end: string;
  /** The tenant's IANA time zone the days are counted in. */
  timezone: string;
  figures: Figure[];
  /** Chart x-axis: the days of the range, or the hours 0..23 / weekdays 1..7 for time-of-day calls. */
  buckets: string[];
  /** Per bucket, the chart's additive figures over all rows: Σ series = total. */
  series: Partial<Record<CountFigure, number[]>>;
  rows: AnalysisRowDto[];
  /** The table's total row, which is also the screen's summary. */
  total: Figures;
  /** The same figures over the previous period of equal length (when compare was asked). */
  previous: Figures | null;
  previousBegin: string | null;
  previousEnd: string | null;
}
