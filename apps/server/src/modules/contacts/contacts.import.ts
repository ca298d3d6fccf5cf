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
import { badRequest } from '../../platform/http/errors.js';
import { headerMap, readSheet, rowErrors, throwRowErrors, type SheetRow } from '../../platform/xlsx/sheet.js';
import { parse } from '../../platform/http/validate.js';
import { saveIn, scopeOf, updateIn } from './contacts.service.js';

type Kdb = Db['kysely'];

const HEADER_TO_COLUMN = headerMap(CONTACT_SHEET_COLUMNS, CONTACT_SHEET_HEADERS);

/** The first sheet's rows keyed by column; refuses a file that is not a workbook with a name column. */
export const readContactSheet = (buf: Buffer) =>
  readSheet<ContactSheetColumn>(buf, {
    headers: HEADER_TO_COLUMN,
    required: ['name'],
    invalid: 'import_file_invalid',
    maxRows: CONTACT_LIMITS.importRows,
  });

/** Sheet texts of one row → the fields of a save / update (tags and owner resolved by name). */
function toInput(
  cells: SheetRow<ContactSheetColumn>['cells'],
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
  const rows = await readContactSheet(buf);
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
    throwRowErrors(errors);
    return { created, updated };
  });
}
