import type ExcelJS from 'exceljs';
import {
  CONTACT_LIMITS,
  CONTACT_SHEET_COLUMNS,
  CONTACT_SHEET_HEADERS,
  GENDER_TEXTS,
  contactUpdateSchema,
  contactSaveSchema,
  type ContactFieldsInput,
  type ContactSheetColumn,
  type ImportRowError,
} from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { Db } from '../../platform/db/database.js';
import { AppError, badRequest } from '../../platform/http/errors.js';
import { loadExcel } from '../../platform/excel.js';
import { parse } from '../../platform/http/validate.js';
import { saveIn, scopeOf, updateIn } from './contacts.service.js';

type Kdb = Db['kysely'];
type SheetRow = { row: number; cells: Partial<Record<ContactSheetColumn, string>> };

/** Header text (either language, or the column key itself) → column. */
const HEADER_TO_COLUMN = new Map<string, ContactSheetColumn>(
  CONTACT_SHEET_COLUMNS.flatMap((c) => [
    [c.toLowerCase(), c] as const,
    [CONTACT_SHEET_HEADERS.zh[c].toLowerCase(), c] as const,
    [CONTACT_SHEET_HEADERS.en[c].toLowerCase(), c] as const,
  ]),
);

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** A cell as the text a user typed: dates as YYYY-MM-DD, numbers without formatting, rich text joined. */
function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return dayOf(v);
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('text' in v && typeof v.text === 'string') return v.text;
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    return '';
  }
  return String(v).trim();
}

/** The first sheet's rows keyed by column; refuses a file that is not a workbook with a name column. */
export async function readSheet(buf: Buffer): Promise<SheetRow[]> {
  const wb = new (await loadExcel()).Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw badRequest('import_file_invalid');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw badRequest('import_file_invalid');
  const columns = new Map<number, ContactSheetColumn>();
  ws.getRow(1).eachCell((cell, col) => {
    const c = HEADER_TO_COLUMN.get(cellText(cell.value).toLowerCase());
    if (c) columns.set(col, c);
  });
  if (![...columns.values()].includes('name')) throw badRequest('import_file_invalid');
  const rows: SheetRow[] = [];
  ws.eachRow((r, n) => {
    if (n === 1) return;
    const cells: SheetRow['cells'] = {};
    for (const [col, key] of columns) {
      const t = cellText(r.getCell(col).value);
      if (t) cells[key] = t;
    }
    if (Object.keys(cells).length) rows.push({ row: n, cells });
  });
  if (rows.length > CONTACT_LIMITS.importRows) throw badRequest('too_long', { file: 'too_long' });
  return rows;
}

/** Sheet texts of one row → the fields of a save / update (tags and owner resolved by name). */
function toInput(
  cells: SheetRow['cells'],
  names: { tags: Map<string, string>; users: Map<string, string> },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of [
    'id',
    'name',
    'phone',
    'email',
    'company',
    'region',
    'address',
    'birthday',
    'memo',
  ] as const)
    if (cells[c] !== undefined) out[c] = cells[c];
  if (cells.gender !== undefined) {
    const g = cells.gender.toLowerCase();
    const hit = (['male', 'female'] as const).find(
      (v) => v === g || GENDER_TEXTS.zh[v] === g || GENDER_TEXTS.en[v].toLowerCase() === g,
    );
    out.gender = hit ?? cells.gender;
  }
  if (cells.tags !== undefined) {
    const list = cells.tags
      .split(/[,，、]/)
      .map((s) => s.trim())
      .filter(Boolean);
    // An unknown name stays as is: it is not a tag id, so the tag check refuses it on this row.
    out.tags = list.map((n) => names.tags.get(n) ?? `?${n}`);
  }
  if (cells.owner !== undefined) out.owner = names.users.get(cells.owner.toLowerCase()) ?? `?${cells.owner}`;
  return out;
}

/** Contact tag names and user names (login name, else display name when unambiguous) → ids. */
async function lookups(k: Kdb, orgi: string) {
  const [tags, users] = await Promise.all([
    k
      .selectFrom('tag')
      .select(['id', 'name'])
      .where('orgi', '=', orgi)
      .where('tagtype', '=', 'user')
      .execute(),
    k.selectFrom('users').select(['id', 'username', 'uname']).where('orgi', '=', orgi).execute(),
  ]);
  const byName = new Map<string, string>();
  const unames = new Map<string, string[]>();
  for (const u of users) {
    unames.set(u.uname.toLowerCase(), [...(unames.get(u.uname.toLowerCase()) ?? []), u.id]);
  }
  for (const [n, ids] of unames) if (ids.length === 1) byName.set(n, ids[0]!);
  for (const u of users) byName.set(u.username.toLowerCase(), u.id);
  return { tags: new Map(tags.map((t) => [t.name, t.id])), users: byName };
}

const rowErrors = (row: number, err: unknown): ImportRowError[] => {
  if (!(err instanceof AppError)) throw err;
  const fields = Object.entries(err.fields ?? {});
  return fields.length
    ? fields.map(([field, key]) => ({ row, field, key }))
    : [{ row, field: '_', key: err.key }];
};

/**
 * Imports the first sheet of an .xlsx in one transaction: a row with an id updates that contact, a row
 * without creates one. Every row is checked (fields, tags, owner, scope, duplicate mobile / email — also
 * against earlier rows of the file); if any row fails nothing is stored and the error lists every failed
 * row as `fields` `{"<row>.<column>": "<error key>"}` under key `import_rows_invalid`.
 */
export async function importContacts(
  db: Db,
  p: Principal,
  buf: Buffer,
): Promise<{ created: number; updated: number }> {
  const rows = await readSheet(buf);
  if (rows.length === 0) throw badRequest('import_file_invalid');
  return db.kysely.transaction().execute(async (k) => {
    const names = await lookups(k, p.orgi);
    const scope = await scopeOf(k, p);
    const errors: ImportRowError[] = [];
    let created = 0;
    let updated = 0;
    for (const { row, cells } of rows) {
      try {
        const raw = toInput(cells, names);
        if (cells.id) {
          await updateIn(k, p, parse(contactUpdateSchema, raw) as ContactFieldsInput, scope);
          updated++;
        } else {
          await saveIn(k, p, parse(contactSaveSchema, raw), scope);
          created++;
        }
      } catch (err) {
        errors.push(...rowErrors(row, err));
      }
    }
    if (errors.length) {
      const fields = Object.fromEntries(errors.map((e) => [`${e.row}.${e.field}`, e.key]));
      throw new AppError('import_rows_invalid', 400, fields);
    }
    return { created, updated };
  });
}
