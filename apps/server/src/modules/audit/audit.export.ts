import { AUDIT_EXPORT_MAX, type ExportJobDto } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import type { Principal } from '../../platform/auth/principal.js';
import { localTime, startExport, type ExportCell } from '../export/export.service.js';
import * as repo from './audit.repository.js';

type Lang = 'zh' | 'en';
const CHUNK = 1_000;

const HEADERS: Record<Lang, string[]> = {
  zh: ['时间', '操作人', '操作', '方法', '路径', '对象', '修改前', '修改后 / 请求', 'IP', 'User-Agent'],
  en: ['Time', 'User', 'Action', 'Method', 'Path', 'Target', 'Before', 'After / request', 'IP', 'User-Agent'],
};
const WIDTHS = [20, 16, 28, 8, 36, 24, 40, 40, 16, 40];

/** The records the filter matches (newest first, at most AUDIT_EXPORT_MAX) as a background .xlsx job. */
export async function exportRecords(
  ctx: Pick<AppContext, 'db' | 'config'>,
  p: Principal,
  f: repo.AuditFilter,
  lang: Lang,
  tz: number,
): Promise<ExportJobDto> {
  const k = ctx.db.kysely;
  const total = Math.min(await repo.count(k, f), AUDIT_EXPORT_MAX);
  async function* rows(): AsyncIterable<ExportCell[][]> {
    let before: { createtime: number; id: string } | undefined;
    let left = total;
    while (left > 0) {
      const batch = await repo.olderThan(k, f, before, Math.min(CHUNK, left));
      if (batch.length === 0) return;
      left -= batch.length;
      const last = batch[batch.length - 1]!;
      before = { createtime: Number(last.createtime), id: last.id };
      yield batch.map((r) => [
        localTime(r.createtime, tz),
        r.username,
        r.action,
        r.method,
        r.path,
        r.target,
        r.before ?? '',
        r.after ?? '',
        r.ip,
        r.useragent,
      ]);
    }
  }
  const name = lang === 'en' ? 'Records' : '操作记录';
  return startExport(ctx, p, {
    kind: 'records',
    name,
    tz,
    total,
    sheets: [
      {
        name,
        columns: HEADERS[lang].map((header, i) => ({ header, width: WIDTHS[i], time: i === 0 })),
        rows,
      },
    ],
  });
}
