import {
  CONTACT_SHEET_COLUMNS,
  CONTACT_SHEET_HEADERS,
  GENDER_TEXTS,
  type ContactListQuery,
  type ContactSheetColumn,
  type ExportJobDto,
  type Gender,
} from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { tagsByIds } from '../tags/tags.repository.js';
import { localTime, startExport, type ExportCell, type ExportColumn } from '../export/export.service.js';
import * as repo from './contacts.repository.js';
import { scopeOf } from './contacts.service.js';

type Kdb = Db['kysely'];
type Lang = 'zh' | 'en';

const WIDTHS: Partial<Record<ContactSheetColumn, number>> = {
  id: 34,
  name: 16,
  phone: 14,
  email: 28,
  company: 20,
  address: 30,
  memo: 30,
  tags: 20,
  createtime: 20,
  updatetime: 20,
};

const columns = (lang: Lang): ExportColumn[] =>
  CONTACT_SHEET_COLUMNS.map((c) => ({
    header: CONTACT_SHEET_HEADERS[lang][c],
    width: WIDTHS[c],
    time: c === 'createtime' || c === 'updatetime',
  }));

/**
 * One batch of contacts as sheet rows, in CONTACT_SHEET_COLUMNS order. Tags are names joined by ',' and
 * the owner is the login name: what the import resolves back, so an exported sheet imports unchanged.
 */
async function cells(k: Kdb, orgi: string, rows: repo.ContactRow[], lang: Lang, tz: number) {
  const links = await repo.tagIdsOf(
    k,
    rows.map((r) => r.id),
  );
  const tagNames = new Map(
    (await tagsByIds(k, orgi, [...new Set(links.map((l) => l.tagid))])).map((t) => [t.id, t.name]),
  );
  const owners = [...new Set(rows.flatMap((r) => (r.owner ? [r.owner] : [])))];
  const logins = new Map(
    owners.length
      ? (await k.selectFrom('users').select(['id', 'username']).where('id', 'in', owners).execute()).map(
          (u) => [u.id, u.username],
        )
      : [],
  );
  return rows.map((r): ExportCell[] => {
    const tags = links.flatMap((l) =>
      l.contactid === r.id && tagNames.has(l.tagid) ? [tagNames.get(l.tagid)!] : [],
    );
    const value: Record<ContactSheetColumn, ExportCell> = {
      id: r.id,
      name: r.name,
      phone: r.phone,
      email: r.email,
      company: r.company,
      gender: GENDER_TEXTS[lang][r.gender as Gender] ?? '',
      region: r.region,
      address: r.address,
      birthday: r.birthday,
      memo: r.memo,
      tags: tags.join(','),
      owner: (r.owner && logins.get(r.owner)) || '',
      createtime: localTime(r.createtime, tz),
      updatetime: localTime(r.updatetime, tz),
    };
    return CONTACT_SHEET_COLUMNS.map((c) => value[c]);
  });
}

/**
 * Starts the background export of the caller's contacts (within their data scope): the selected `ids`
 * (expids) or every contact the list filter matches (expsearch). The job is followed through
 * /api/export/* like every export.
 */
export async function exportContacts(
  ctx: Pick<AppContext, 'db' | 'config'>,
  p: Principal,
  what: { ids: readonly string[] } | { filter: ContactListQuery },
  lang: Lang,
  tz: number,
): Promise<ExportJobDto> {
  const k = ctx.db.kysely;
  const scope = await scopeOf(k, p);
  const filter: ContactListQuery = 'filter' in what ? what.filter : { tag: undefined, owner: undefined };
  const ids = 'ids' in what ? [...new Set(what.ids)] : null;
  const total = ids ? ids.length : await repo.countContacts(k, p.orgi, scope, filter);
  async function* rows(): AsyncIterable<ExportCell[][]> {
    const batches = ids
      ? repo.iterateContactsByIds(k, p.orgi, scope, ids)
      : repo.iterateContacts(k, p.orgi, scope, filter);
    for await (const batch of batches) yield cells(k, p.orgi, batch, lang, tz);
  }
  const name = lang === 'en' ? 'Contacts' : '联系人';
  return startExport(ctx, p, {
    kind: 'contacts',
    name,
    tz,
    total,
    sheets: [{ name, columns: columns(lang), rows }],
  });
}
