import { sql, type RawBuilder } from 'kysely';

/** A LIKE pattern that finds `q` literally (% _ \ escaped) anywhere, lower-cased. */
export const containsPattern = (q: string): string =>
  `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `lower(column) like '%q%'` with q taken literally, on both dialects (the escape character is explicit). */
export const containsText = (column: string, q: string): RawBuilder<boolean> =>
  sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(q)} escape '\\'`;
