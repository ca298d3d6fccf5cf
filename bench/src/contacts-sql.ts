/**
 * The SQL GET /api/contacts/index runs for B8's contact-search cases (a usertype '0' caller: no scope
 * filter), shared by the bench (bare, in process) and its HTTP baseline (servers/contacts-baseline.ts).
 */
export type BenchDialect = 'sqlite' | 'postgres';

export const COMPANIES = 500;
export const phoneOf = (i: number): string => `138${String(i).padStart(8, '0')}`;

export interface ContactCase {
  name: string;
  /** kefu's call. */
  url: string;
  /** The statements in order with their parameters; '@' stands for the previous statement's contactid. */
  sql: Array<[string, unknown[]]>;
}

export function contactCases(d: BenchDialect, n: number): ContactCase[] {
  const ph = (i: number) => (d === 'postgres' ? `$${i}` : '?');
  // The page's limit / offset follow the filter's parameters.
  const page = (where: string, next: number) =>
    `select * from contact where orgi = ${ph(1)}${where} order by createtime desc, id desc limit ${ph(next)} offset ${ph(next + 1)}`;
  const total = (where: string) => `select count(*) as n from contact where orgi = ${ph(1)}${where}`;
  const like = ` and searchkey like ${ph(2)} escape '\\'`;
  const byId = ` and id = ${ph(2)}`;
  const phone = phoneOf(Math.floor(n / 2));
  return [
    {
      name: `keyword, contains (${((11 / COMPANIES) * 100).toFixed(1)}% hit)`,
      url: `/api/contacts/index?q=${encodeURIComponent('公司42')}`,
      sql: [
        [page(like, 3), ['kefu', '%公司42%', 20, 0]],
        [total(like), ['kefu', '%公司42%']],
      ],
    },
    {
      name: 'whole mobile (key)',
      url: `/api/contacts/index?q=${phone}`,
      sql: [
        [
          `select contactid from contact_identity where orgi = ${ph(1)} and kind = ${ph(2)} and value = ${ph(3)}`,
          ['kefu', 'phone', phone],
        ],
        [page(byId, 3), ['kefu', '@', 20, 0]],
        [total(byId), ['kefu', '@']],
      ],
    },
    {
      name: 'first page',
      url: '/api/contacts/index',
      sql: [
        [page('', 2), ['kefu', 20, 0]],
        [total(''), ['kefu']],
      ],
    },
  ];
}

/** Runs a case's statements through `query`; answers the page's rows and the count. */
export async function runCase(
  c: ContactCase,
  query: (text: string, args: unknown[]) => Promise<Array<Record<string, unknown>>>,
): Promise<{ list: Array<Record<string, unknown>>; total: number }> {
  let prev: unknown = '';
  let list: Array<Record<string, unknown>> = [];
  let total = 0;
  for (const [text, params] of c.sql) {
    const rows = await query(
      text,
      params.map((p) => (p === '@' ? prev : p)),
    );
    if (text.startsWith('select contactid')) prev = rows[0]?.contactid ?? '';
    else if (text.startsWith('select count')) total = Number(rows[0]?.n ?? 0);
    else list = rows;
  }
  return { list, total };
}
