import {
  KB_LIMITS,
  KB_SHEET_COLUMNS,
  KB_SHEET_HEADERS,
  KB_YES_NO,
  kbItemSaveSchema,
  type ExportJobDto,
  type ImportRowError,
  type KbImportResult,
  type KbSheetColumn,
} from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { loadExcel } from '../../platform/excel.js';
import { badRequest } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { parse } from '../../platform/http/validate.js';
import { headerMap, readSheet, rowErrors, throwRowErrors, type SheetRow } from '../../platform/xlsx/sheet.js';
import { localTime, startExport, type ExportCell } from '../export/export.service.js';
import * as repo from './kb.repository.js';
import { announce, bumpIndex, parseSimilar } from './kb.index.js';
import { resolveFilter, storeIn } from './items.service.js';

type Kdb = Db['kysely'];
type Lang = 'zh' | 'en';
type Cells = SheetRow<KbSheetColumn>['cells'];

/**
 * The knowledge .xlsx: one column per KB_SHEET_COLUMNS (headers in either language). Types are paths of
 * names ("售后/退货", created when missing), similar questions one per line (or separated by |), topics
 * names separated by commas, dates YYYY-MM-DD in the reader's time zone (begin from 00:00, end until
 * 23:59:59.999). The template, the import and both exports use it, so an exported sheet imports back.
 */

const DAY = 86_400_000;
const WIDTHS: Record<KbSheetColumn, number> = {
  id: 34,
  type: 16,
  question: 36,
  similar: 40,
  answer: 60,
  enabled: 8,
  begin: 12,
  end: 12,
  topics: 16,
};

const dayText = (ms: number | null, tz: number): string =>
  ms === null ? '' : new Date(localTime(ms, tz) ?? ms).toISOString().slice(0, 10);

/** A YYYY-MM-DD of the reader's zone → the epoch ms of its start (or, for `end`, its last ms). */
function parseDay(text: string, tz: number, end: boolean): number {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim().replace(/[/.]/g, '-'));
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (Number.isNaN(ms)) throw badRequest('invalid_field', { [end ? 'end' : 'begin']: 'invalid_field' });
  return ms + tz * 60_000 + (end ? DAY - 1 : 0);
}

function parseEnabled(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  const v = text.trim().toLowerCase();
  if (v === '1' || KB_YES_NO.yes.includes(v)) return true;
  if (v === '0' || KB_YES_NO.no.includes(v)) return false;
  throw badRequest('invalid_field', { enabled: 'invalid_field' });
}

/** The type of a "a/b/c" path, created (inside the import's transaction) when missing. */
async function typeOfPath(k: Kdb, orgi: string, path: string, now: number): Promise<string> {
  let parent = '';
  for (const name of path
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (name.length > KB_LIMITS.typeName) throw badRequest('too_long', { type: 'too_long' });
    const hit = await k
      .selectFrom('kb_type')
      .select('id')
      .where('orgi', '=', orgi)
      .where('parentid', '=', parent)
      .where('name', '=', name)
      .executeTakeFirst();
    if (hit) {
      parent = hit.id;
      continue;
    }
    const id = newId();
    await k
      .insertInto('kb_type')
      .values({ id, orgi, name, parentid: parent, sortindex: 0, createtime: now, updatetime: now })
      .execute();
    parent = id;
  }
  return parent;
}

/** Topic name (lower case) → id. */
async function topicNames(k: Kdb, orgi: string): Promise<Map<string, string>> {
  const rows = await k.selectFrom('service_topic').select(['id', 'name']).where('orgi', '=', orgi).execute();
  return new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
}

/** One row's texts → the fields of a save (checked by the same schema as the form). */
function toInput(cells: Cells, tz: number, typeid: string | undefined, topics: Map<string, string>) {
  const raw: Record<string, unknown> = {
    question: cells.question ?? '',
    answer: cells.answer ?? '',
    similar: (cells.similar ?? '').split(/\r?\n|\|/),
    typeid,
  };
  const enabled = parseEnabled(cells.enabled);
  if (enabled !== undefined) raw.enabled = enabled;
  raw.begintime = cells.begin ? parseDay(cells.begin, tz, false) : null;
  raw.endtime = cells.end ? parseDay(cells.end, tz, true) : null;
  if (cells.topics !== undefined) {
    const names = cells.topics
      .split(/[,，、]/)
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = names.find((n) => !topics.has(n.toLowerCase()));
    if (unknown) throw badRequest('invalid_field', { topics: 'invalid_field' });
    raw.topics = names.map((n) => topics.get(n.toLowerCase())!);
  }
  return parse(kbItemSaveSchema, raw);
}

const SHEET = headerMap(KB_SHEET_COLUMNS, KB_SHEET_HEADERS);

/**
 * Imports the first sheet in one transaction: a row with an id updates that item, a row without creates
 * one. Every row is checked; if any fails nothing is stored and every failed row is reported
 * (import_rows_invalid with `fields` {"<row>.<column>": key}). The index is current when it returns.
 */
export async function importItems(db: Db, p: Principal, buf: Buffer, tz: number): Promise<KbImportResult> {
  const rows = await readSheet<KbSheetColumn>(buf, {
    headers: SHEET,
    required: ['question', 'answer'],
    invalid: 'kb_import_file_invalid',
    maxRows: KB_LIMITS.importRows,
  });
  if (rows.length === 0) throw badRequest('kb_import_file_invalid');
  const now = Date.now();
  const { result, change } = await db.kysely.transaction().execute(async (k) => {
    const topics = await topicNames(k, p.orgi);
    const errors: ImportRowError[] = [];
    let created = 0;
    let updated = 0;
    for (const { row, cells } of rows) {
      try {
        const typeid = cells.type ? await typeOfPath(k, p.orgi, cells.type, now) : undefined;
        const input = toInput(cells, tz, typeid, topics);
        const current = cells.id ? await repo.findItem(k, p.orgi, cells.id) : null;
        if (cells.id && !current) throw badRequest('invalid_field', { id: 'invalid_field' });
        await storeIn(k, p.orgi, p.id, input, current ?? null, now);
        if (current) updated++;
        else created++;
      } catch (err) {
        errors.push(...rowErrors(row, err));
      }
    }
    // Nothing of a sheet with a bad row is kept: the transaction rolls back.
    throwRowErrors(errors);
    return { result: { created, updated }, change: await bumpIndex(k, db, p.orgi) };
  });
  announce(db, change);
  return result;
}

/** The empty sheet to fill in (headers in the caller's language and two example rows). */
export async function template(lang: Lang): Promise<Buffer> {
  const wb = new (await loadExcel()).Workbook();
  const ws = wb.addWorksheet(lang === 'en' ? 'Knowledge' : '知识库');
  ws.columns = KB_SHEET_COLUMNS.map((c) => ({ header: KB_SHEET_HEADERS[lang][c], width: WIDTHS[c] }));
  ws.getRow(1).font = { bold: true };
  const zh = lang === 'zh';
  ws.addRow([
    '',
    zh ? '售后/退货' : 'After-sales/Returns',
    zh ? '如何申请退货？' : 'How do I return an item?',
    zh ? '怎么退货\n退货流程是什么' : 'How to return\nWhat is the return process',
    zh
      ? '在“我的订单”中找到订单，点击“申请售后”即可。\n详见[退货说明](https://example.com/returns)'
      : 'Open the order in "My orders" and choose "After-sales".\nSee [returns](https://example.com/returns)',
    zh ? '是' : 'yes',
    '',
    '',
    '',
  ]);
  ws.addRow([
    '',
    zh ? '活动' : 'Promotions',
    zh ? '双十一有什么优惠？' : 'What are the Singles Day offers?',
    '',
    zh ? '全场满300减50。' : '50 off every 300.',
    zh ? '是' : 'yes',
    '2025-11-01',
    '2025-11-11',
    '',
  ]);
  for (let r = 2; r <= 3; r++) ws.getRow(r).alignment = { wrapText: true, vertical: 'top' };
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The rows of a batch of items in sheet order. */
async function cells(k: Kdb, orgi: string, rows: repo.KbItemRow[], lang: Lang, tz: number) {
  const types = await repo.listTypes(k, orgi);
  const byId = new Map(types.map((t) => [t.id, t]));
  const path = (id: string): string => {
    const names: string[] = [];
    for (let t = byId.get(id); t && names.length < 20; t = byId.get(t.parentid)) names.unshift(t.name);
    return names.join('/');
  };
  const topics = await repo.topicsOf(
    k,
    rows.map((r) => r.id),
  );
  return rows.map((r): ExportCell[] => {
    const v: Record<KbSheetColumn, ExportCell> = {
      id: r.id,
      type: path(r.typeid),
      question: r.question,
      similar: parseSimilar(r.similar).join('\n'),
      answer: r.answer,
      enabled: r.enabled === 1 ? (lang === 'en' ? 'yes' : '是') : lang === 'en' ? 'no' : '否',
      begin: dayText(r.begintime === null ? null : Number(r.begintime), tz),
      end: dayText(r.endtime === null ? null : Number(r.endtime), tz),
      topics: topics
        .filter((t) => t.itemid === r.id)
        .map((t) => t.name)
        .join(','),
    };
    return KB_SHEET_COLUMNS.map((c) => v[c]);
  });
}

/** expsearch (the list's filter) and expall (every item) as a background .xlsx job. */
export async function exportItems(
  ctx: Pick<AppContext, 'db' | 'config'>,
  p: Principal,
  filter: repo.ItemFilter,
  lang: Lang,
  tz: number,
): Promise<ExportJobDto> {
  const k = ctx.db.kysely;
  const now = Date.now();
  const f = await resolveFilter(k, p.orgi, filter);
  const total = await repo.countItems(k, p.orgi, f, now);
  const name = lang === 'en' ? 'Knowledge' : '知识库';
  return startExport(ctx, p, {
    kind: 'knowledge',
    name,
    tz,
    total,
    sheets: [
      {
        name,
        columns: KB_SHEET_COLUMNS.map((c) => ({ header: KB_SHEET_HEADERS[lang][c], width: WIDTHS[c] })),
        rows: async function* () {
          for await (const batch of repo.iterateItems(k, p.orgi, f, now))
            yield cells(k, p.orgi, batch, lang, tz);
        },
      },
    ],
  });
}
