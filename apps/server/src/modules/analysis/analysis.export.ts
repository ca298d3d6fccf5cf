import {
  FIGURE_FORMAT,
  LANGUAGES,
  type AnalysisCall,
  type AnalysisResultDto,
  type ExportJobDto,
  type Figures,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import type { Principal } from '../../platform/auth/principal.js';
import { startExport, type ExportCell, type ExportColumn } from '../export/export.service.js';

type Lang = 'zh' | 'en';

const texts = (lang: Lang): Record<string, string> =>
  (LANGUAGES.find((l) => l.language === lang) ?? LANGUAGES[0]).texts as Record<string, string>;
const text = (lang: Lang, key: string): string => texts(lang)[key] ?? key;

/** A figure as a sheet cell: durations in seconds, rates in percent (two decimals), counts as they are. */
function cell(f: Figures, fig: keyof Figures): ExportCell {
  const v = f[fig];
  if (v === null || v === undefined) return null;
  const fmt = FIGURE_FORMAT[fig];
  if (fmt === 'ms') return Math.round(v / 10) / 100;
  if (fmt === 'rate') return Math.round(v * 10_000) / 100;
  return v;
}

const header = (lang: Lang, fig: keyof Figures): string => {
  const unit =
    FIGURE_FORMAT[fig] === 'ms'
      ? lang === 'en'
        ? ' (s)'
        : '（秒）'
      : FIGURE_FORMAT[fig] === 'rate'
        ? ' (%)'
        : '';
  return text(lang, `analysis.fig.${fig}`) + unit;
};

/** The row's label as the screen shows it: names for ids, texts for channels, engines, hours… */
export function rowLabel(lang: Lang, dim: string, key: string, name: string): string {
  if (key === '~other') return text(lang, 'analysis.other');
  if (dim === 'channel') return text(lang, `channel.name.${key}`);
  if (dim === 'engine')
    return key ? text(lang, `analysis.engine.${key}`) : text(lang, 'analysis.engine.none');
  if (dim === 'hour') return text(lang, 'analysis.hourLabel').replace('{{hour}}', key);
  if (dim === 'weekday') return text(lang, `analysis.weekday.${key}`);
  if (dim === 'agentday') return `${name} ${key.slice(0, 10)}`;
  return name || key || text(lang, 'analysis.unknown');
}

/** The table of one analysis as an .xlsx job (the shared export module), headed in the reader's language. */
export function exportAnalysis(
  ctx: Pick<AppContext, 'db' | 'config'>,
  p: Principal,
  call: AnalysisCall,
  result: AnalysisResultDto,
  lang: Lang,
  tz: number,
): Promise<ExportJobDto> {
  const title = `${text(lang, `analysis.dim.${result.dim}`)}`;
  const columns: ExportColumn[] = [
    { header: title, width: 24 },
    ...result.figures.map((f) => ({ header: header(lang, f), width: 16 })),
  ];
  const rows: ExportCell[][] = [
    ...result.rows.map((r) => [
      rowLabel(lang, result.dim, r.key, r.name),
      ...result.figures.map((f) => cell(r.figures, f)),
    ]),
    [text(lang, 'analysis.total'), ...result.figures.map((f) => cell(result.total, f))],
  ];
  const name = `${text(lang, `menu.${SCREEN_OF[call]}`)} ${result.begin}~${result.end}`;
  return startExport(ctx, p, {
    kind: 'analysis',
    name,
    tz,
    total: rows.length,
    sheets: [
      {
        name: title.slice(0, 31),
        columns,
        rows: async function* () {
          yield rows;
        },
      },
    ],
  });
}

/** The menu title key of the screen each call belongs to (the file name). */
const SCREEN_OF: Record<AnalysisCall, string> = {
  searcheEngine: 'searchEngine',
  organDegree: 'sectionStats',
  userDegree: 'customerService',
  dereeList: 'satisfactionStats',
  workLog: 'workLog',
  workLogList: 'workLog',
  workOrganLog: 'workOrganLog',
  quality: 'qualityStats',
  'label/quality': 'qualityLabelStats',
  regionList: 'regionalAnalysis',
  browserData: 'browser',
  osnameData: 'operatingSystem',
  labelList: 'sessionTag',
  visitor: 'timeAnalysis',
  channelCount: 'channelAnalysis',
  snsidCount: 'websiteAnalysis',
  dateCount: 'dateAnalysis',
  aiDegree: 'aiStatistics',
};
