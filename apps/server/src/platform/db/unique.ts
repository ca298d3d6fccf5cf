import type { Kysely } from 'kysely';
import { badRequest } from '../http/errors.js';
import type { Database } from './schema.js';

/**
 * Recognises a unique-index violation from either dialect and names the columns involved, so services
 * can map it to the same error key whether SQLite or PostgreSQL raised it (e.g. a concurrent insert
 * that slipped past the service's own check).
 */
export function uniqueViolationColumns(err: unknown): string[] | null {
  if (typeof err !== 'object' || err === null) return null;
  const e = err as { code?: unknown; message?: unknown; detail?: unknown; constraint?: unknown };
  // better-sqlite3: code SQLITE_CONSTRAINT_UNIQUE, message "UNIQUE constraint failed: users.orgi, users.username"
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const m = /constraint failed: (.*)$/.exec(String(e.message ?? ''));
    return m ? m[1].split(',').map((c) => c.trim().split('.').pop() ?? '') : [];
  }
  // pg: code 23505, detail "Key (orgi, username)=(kefu, bob) already exists."
  if (e.code === '23505') {
    const m = /Key \(([^)]*)\)=/.exec(String(e.detail ?? ''));
    return m ? m[1].split(',').map((c) => c.trim()) : [];
  }
  return null;
}

export const isUniqueViolation = (err: unknown): boolean => uniqueViolationColumns(err) !== null;

/**
 * A `.catch` handler for a save that checked its own uniqueness first: a concurrent insert that slipped
 * past the check hits the unique index and gets the same answer (`toError()`); anything else is rethrown.
 */
export const rethrowUnique =
  (toError: () => Error) =>
  (err: unknown): never => {
    if (uniqueViolationColumns(err)) throw toError();
    throw err;
  };

/** The "name already used in this organisation" error, on the field that holds the name. */
export const nameRepeat = (field = 'name') => badRequest('name_repeat', { [field]: 'name_repeat' });

/**
 * Whether another row of `table` (not `exceptId`) already has these values — the check a save runs before
 * its unique index would refuse the row (e.g. a name among its siblings).
 */
export async function taken(
  k: Kysely<Database>,
  table: keyof Database,
  match: Readonly<Record<string, string>>,
  exceptId?: string,
): Promise<boolean> {
  const { ref } = k.dynamic;
  let q = k.selectFrom(table).select(ref<string>('id'));
  for (const [column, value] of Object.entries(match)) q = q.where(ref(column), '=', value);
  if (exceptId) q = q.where(ref('id'), '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}
