import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { containsText } from '../../platform/db/like.js';
import type { SensitiveHitTable, SensitiveWordTable } from '../../platform/db/schema-compliance.js';

type Kdb = Kysely<Database> | Transaction<Database>;
export type WordRow = Selectable<SensitiveWordTable>;
export type HitRow = Selectable<SensitiveHitTable>;

/** Rows per multi-row INSERT: 10 columns × 500 stays under both dialects' parameter limits. */
const CHUNK = 500;

export async function page(
  k: Kdb,
  orgi: string,
  kind: string,
  f: { q?: string; action?: string },
  offset: number,
  limit: number,
): Promise<{ rows: WordRow[]; total: number }> {
  let q = k.selectFrom('sensitive_word').where('orgi', '=', orgi).where('kind', '=', kind);
  if (f.q) q = q.where(containsText('word', f.q));
  if (f.action) q = q.where('action', '=', f.action);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('createtime', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export const findById = (k: Kdb, orgi: string, id: string) =>
  k.selectFrom('sensitive_word').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export async function normExists(
  k: Kdb,
  orgi: string,
  kind: string,
  norm: string,
  except = '',
): Promise<boolean> {
  const r = await k
    .selectFrom('sensitive_word')
    .select('id')
    .where('orgi', '=', orgi)
    .where('kind', '=', kind)
    .where('norm', '=', norm)
    .where('id', '!=', except)
    .executeTakeFirst();
  return !!r;
}

/** Which of these normalised forms a list already has. */
export async function existingNorms(
  k: Kdb,
  orgi: string,
  kind: string,
  norms: string[],
): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < norms.length; i += CHUNK) {
    const rows = await k
      .selectFrom('sensitive_word')
      .select('norm')
      .where('orgi', '=', orgi)
      .where('kind', '=', kind)
      .where('norm', 'in', norms.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) out.add(r.norm);
  }
  return out;
}

/** Inserts words; a word whose normalised form the list already has is skipped. Returns how many went in. */
export async function insertWords(k: Kdb, rows: Array<Insertable<SensitiveWordTable>>): Promise<number> {
  let n = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const r = await k
      .insertInto('sensitive_word')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(['orgi', 'kind', 'norm']).doNothing())
      .executeTakeFirst();
    n += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return n;
}

export async function updateWord(
  k: Kdb,
  orgi: string,
  id: string,
  set: Partial<Pick<WordRow, 'word' | 'norm' | 'pinyin' | 'action' | 'updatetime'>>,
): Promise<void> {
  await k.updateTable('sensitive_word').set(set).where('orgi', '=', orgi).where('id', '=', id).execute();
}

export async function deleteWords(k: Kdb, orgi: string, kind: string, ids: string[]): Promise<number> {
  const r = await k
    .deleteFrom('sensitive_word')
    .where('orgi', '=', orgi)
    .where('kind', '=', kind)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Both lists of a tenant, as the matcher needs them. */
export const wordsForMatching = (k: Kdb, orgi: string) =>
  k
    .selectFrom('sensitive_word')
    .select(['kind', 'word', 'norm', 'pinyin', 'action'])
    .where('orgi', '=', orgi)
    .execute();

export async function tenantsWithWords(k: Kdb): Promise<string[]> {
  return (await k.selectFrom('sensitive_word').select('orgi').distinct().execute()).map((r) => r.orgi);
}

export async function insertHit(k: Kdb, row: Insertable<SensitiveHitTable>): Promise<void> {
  await k.insertInto('sensitive_hit').values(row).execute();
}

export async function hits(
  k: Kdb,
  orgi: string,
  f: { action?: string; agentserviceid?: string },
  offset: number,
  limit: number,
): Promise<{ rows: HitRow[]; total: number }> {
  let q = k.selectFrom('sensitive_hit').where('orgi', '=', orgi);
  if (f.action) q = q.where('action', '=', f.action);
  if (f.agentserviceid) q = q.where('agentserviceid', '=', f.agentserviceid);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('createtime', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
