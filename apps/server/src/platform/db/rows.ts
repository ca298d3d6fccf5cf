import type { ErrorKey } from '@kefu/protocol';
import { badRequest, notFound } from '../http/errors.js';
import type { Db } from './database.js';

/** The row a lookup found; none is a 404 (with `key`, or not_found). */
export function foundOr404<T>(row: T | undefined, key?: ErrorKey): T {
  if (!row) throw notFound(key);
  return row;
}

/** Tables whose rows are addressed by id within an organisation (orgi). */
type OrgiTable = 'access_faq' | 'satis_opinion' | 'work_service';

/** Deletes the organisation's row with this id; none deleted is a 404. */
export async function deleteOr404(
  k: Db['kysely'],
  table: OrgiTable,
  orgi: string,
  id: string,
): Promise<void> {
  const r = await k.deleteFrom(table).where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) throw notFound();
}

/**
 * A new order for a sorted list: the given ids first (in that order, each once), then the other rows
 * as they were. An id that is not in the list is invalid_field on `ids`.
 */
export function idsFirst(current: readonly string[], ids: readonly string[]): string[] {
  const known = new Set(current);
  if (ids.some((id) => !known.has(id))) throw badRequest('invalid_field', { ids: 'invalid_field' });
  return [...new Set(ids), ...current.filter((id) => !ids.includes(id))];
}

/** Tables ordered by hand (sortindex within an organisation). */
type SortedTable = 'quick_type' | 'quick_reply' | 'tag' | 'service_topic';

/** The sortindex a new row takes: after every row of the organisation. */
export async function nextSortIndex(k: Db['kysely'], table: SortedTable, orgi: string): Promise<number> {
  const r = await k
    .selectFrom(table)
    .select((eb) => eb.fn.max('sortindex').as('m'))
    .where('orgi', '=', orgi)
    .executeTakeFirst();
  return Number(r?.m ?? 0) + 1;
}
