import type { z } from 'zod';
import { QUALITY_EXPORT_KIND, type ExportJobDto, type qualityListQuery } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import type { Principal } from '../../platform/auth/principal.js';
import { localTime, startExport, type ExportCell } from '../export/export.service.js';
import { filtered, listBase, presentRows } from './inspect.service.js';
import type { InspectionRow } from './quality.repository.js';

type Lang = 'zh' | 'en';
const CHUNK = 1_000;
/** One export's rows at most (the list's filters narrow it). */
const MAX = 200_000;

const HEADERS: Record<Lang, string[]> = {
  zh: [
    '会话ID',
    '客服',
    '部门',
    '质检员',
    '状态',
    '得分',
    '结果',
    '致命项',
    '自动扣分',
    '评分表',
    '版本',
    '会话结束',
    '评分时间',
    '发送时间',
    '申诉',
  ],
  en: [
    'Conversation',
    'Agent',
    'Department',
    'Inspector',
    'Status',
    'Score',
    'Result',
    'Fatal',
    'Auto points',
    'Scorecard',
    'Version',
    'Ended',
    'Scored',
    'Sent',
    'Appeal',
  ],
};
const TIME_COLUMNS = new Set([11, 12, 13]);

/** expall (the list's filters) and expIds (chosen inspections): the caller's visible inspections as .xlsx. */
export async function exportInspections(
  ctx: Pick<AppContext, 'db' | 'config'>,
  p: Principal,
  f: z.output<typeof qualityListQuery>,
  ids: string[] | null,
  lang: Lang,
  tz: number,
): Promise<ExportJobDto> {
  const k = ctx.db.kysely;
  const base = () => {
    let q = filtered(listBase(k, p), f);
    if (ids) q = q.where('id', 'in', ids.length ? ids : ['']);
    return q;
  };
  const counted = await base()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const total = Math.min(Number(counted.n), MAX);
  const pass = (v: boolean | null) =>
    v === null ? '' : v ? (lang === 'en' ? 'pass' : '合格') : lang === 'en' ? 'fail' : '不合格';
  async function* rows(): AsyncIterable<ExportCell[][]> {
    for (let at = 0; at < total; at += CHUNK) {
      const batch = (await base()
        .selectAll()
        .orderBy('allottime', 'desc')
        .orderBy('id', 'desc')
        .limit(Math.min(CHUNK, total - at))
        .offset(at)
        .execute()) as InspectionRow[];
      if (!batch.length) return;
      const dtos = await presentRows(k, p.orgi, batch);
      yield dtos.map((r) => [
        r.agentserviceid,
        r.agentusername,
        r.organname,
        r.inspectorname,
        r.status,
        r.score,
        pass(r.pass),
        r.fatal ? 1 : 0,
        r.autopoints,
        r.cardname,
        r.version,
        localTime(r.convtime, tz),
        localTime(r.scoretime, tz),
        localTime(r.sendtime, tz),
        r.appeal ?? '',
      ]);
    }
  }
  const name = lang === 'en' ? 'Quality inspections' : '质检记录';
  return startExport(ctx, p, {
    kind: QUALITY_EXPORT_KIND,
    name,
    tz,
    total,
    sheets: [
      {
        name,
        columns: HEADERS[lang].map((header, i) => ({
          header,
          width: i === 0 ? 34 : 16,
          time: TIME_COLUMNS.has(i),
        })),
        rows,
      },
    ],
  });
}
