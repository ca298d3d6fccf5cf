import type { Db } from '../../platform/db/database.js';
import { runFixed, type Sql } from '../conversation/hot-sql.js';

type Kdb = Db['kysely'];
export type Texts = Record<string, string>;

const parse = (json: string | undefined): Texts | undefined => {
  if (!json) return undefined;
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' ? (v as Texts) : undefined;
  } catch {
    return undefined;
  }
};

/** One scope's texts in one language (a fixed statement: the conversation engine reads it on its path). */
export async function textsOf(k: Sql, orgi: string, scope: string, lang: string): Promise<Texts | undefined> {
  const row = (await runFixed<{ texts: string }>(k, ONE, [orgi, scope, lang])).rows[0];
  return parse(row?.texts);
}
const ONE = 'select texts from visitor_text where orgi = ? and scope = ? and lang = ?';

/** Several scopes in one language: scope → texts. */
export async function textsOfScopes(
  k: Kdb,
  orgi: string,
  scopes: readonly string[],
  lang: string,
): Promise<Map<string, Texts>> {
  if (scopes.length === 0) return new Map();
  const rows = await k
    .selectFrom('visitor_text')
    .select(['scope', 'texts'])
    .where('orgi', '=', orgi)
    .where('lang', '=', lang)
    .where('scope', 'in', [...scopes])
    .execute();
  const out = new Map<string, Texts>();
  for (const r of rows) {
    const t = parse(r.texts);
    if (t) out.set(r.scope, t);
  }
  return out;
}

export async function storeTexts(
  k: Kdb,
  orgi: string,
  scope: string,
  lang: string,
  texts: Texts,
  now: number,
): Promise<void> {
  const json = JSON.stringify(texts);
  await k
    .insertInto('visitor_text')
    .values({ orgi, scope, lang, texts: json, updatetime: now })
    .onConflict((oc) => oc.columns(['orgi', 'scope', 'lang']).doUpdateSet({ texts: json, updatetime: now }))
    .execute();
}

/** Drops a scope's texts in every language (a row of a row scope was deleted). */
export async function dropTexts(k: Kdb, orgi: string, scope: string): Promise<void> {
  await k.deleteFrom('visitor_text').where('orgi', '=', orgi).where('scope', '=', scope).execute();
}
