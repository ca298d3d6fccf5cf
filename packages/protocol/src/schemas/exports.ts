import { z } from 'zod';
import { EXPORT_KINDS } from '../exports.js';
import { idField } from './fields.js';

/** Request schemas of the export jobs (see exports.ts). */
export const exportJobQuery = z.object({ id: idField() });
export const exportListQuery = z.object({
  kind: z.enum(EXPORT_KINDS, { error: 'invalid_field' }).optional(),
});

/**
 * What every export request carries besides its own filter: the reader's time-zone offset in minutes
 * (Date.getTimezoneOffset(): UTC+8 is -480), so the sheet's times read as on the reader's screen.
 */
export const exportOptions = z.object({
  tz: z.coerce
    .number({ error: 'invalid_field' })
    .int('invalid_field')
    .min(-840, 'invalid_field')
    .max(840, 'invalid_field')
    .default(0),
});
