import { sql, type RawBuilder } from 'kysely';

/*
 * The statements every new chat runs, written as `sql` templates instead of query builders: building and
 * compiling a builder query (expression builders, frozen operation nodes) cost several times more CPU than
 * SQLite's own work for these indexed one-row statements. Kept to portable SQL (SQLite and PostgreSQL).
 */

/** `insert into <table> (<columns of row>) values (...)`; undefined fields are left out, as Kysely does. */
export function insertRow(
  table: string,
  row: Readonly<Record<string, unknown>>,
  computed: Readonly<Record<string, RawBuilder<unknown>>> = {},
): RawBuilder<unknown> {
  const cols: string[] = [];
  const vals: Array<RawBuilder<unknown> | unknown> = [];
  for (const [c, v] of Object.entries(row)) {
    if (v === undefined || c in computed) continue;
    cols.push(c);
    vals.push(v);
  }
  for (const [c, v] of Object.entries(computed)) {
    cols.push(c);
    vals.push(v);
  }
  return sql`insert into ${sql.table(table)} (${sql.join(cols.map((c) => sql.ref(c)))}) values (${sql.join(vals)})`;
}

/** `set a = ?, b = ?` of a patch; undefined fields are left out. */
export function setList(patch: Readonly<Record<string, unknown>>): RawBuilder<unknown> {
  return sql.join(
    Object.entries(patch)
      .filter(([, v]) => v !== undefined)
      .map(([c, v]) => sql`${sql.ref(c)} = ${v}`),
  );
}
