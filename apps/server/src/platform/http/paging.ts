import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, type Page } from '@kefu/protocol';

/** `p` is 1-based; `ps` defaults to 20 and is capped at 100 (a larger request is served 100 rows). */
export const pagingSchema = z.object({
  p: z.coerce.number().int('invalid_field').min(1, 'invalid_field').default(1),
  ps: z.coerce
    .number()
    .int('invalid_field')
    .min(1, 'invalid_field')
    .default(PAGE_SIZE_DEFAULT)
    .transform((n) => Math.min(n, PAGE_SIZE_MAX)),
});

export interface Paging {
  p: number;
  ps: number;
}

export const offsetOf = (pg: Paging): number => (pg.p - 1) * pg.ps;

export const pageOf = <T>(list: T[], total: number, pg: Paging): Page<T> => ({
  list,
  total,
  page: pg.p,
  size: pg.ps,
});
