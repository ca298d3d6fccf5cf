import { z } from 'zod';
import { END_BY } from '../realtime/dto.js';
import { HISTORY_LIMITS, HISTORY_SORTS } from '../history.js';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.js';
import { exportOptions } from './exports.js';
import { flag, idField, idList, optionalText } from './fields.js';
import { intField } from './channel.js';

/** Request schemas of the history calls (/api/agentService/*, A04). */

const num = intField;
/** Epoch ms (a date picker's value). */
const time = () => num(0, 8_640_000_000_000).optional();
/** A duration filter in seconds (up to 30 days). */
const seconds = () => num(0, 30 * 86_400).optional();
const id = () => optionalText(64).transform((v) => v || undefined);

/** The filter shared by the list and expsearch. A "from" above its "to" is range_invalid. */
export const historyFilterSchema = z
  .object({
    begin: time(),
    end: time(),
    organ: id(),
    agentno: id(),
    channel: optionalText(32).transform((v) => v || undefined),
    appid: id(),
    /** Visitor name or id, contained. */
    visitor: optionalText(64).transform((v) => v || undefined),
    contactid: id(),
    tagid: id(),
    topicid: id(),
    /** 1–10 a level, 0 not rated. */
    satislevel: num(0, 10).optional(),
    endby: z.enum(END_BY, { error: 'invalid_field' }).optional(),
    waitMin: seconds(),
    waitMax: seconds(),
    serveMin: seconds(),
    serveMax: seconds(),
    leavemsg: flag().optional(),
    ai: flag().optional(),
    /** Words in the messages (see platform/search/tokens.ts: ≤ 100 characters, letters or digits). */
    keyword: z.string({ error: 'invalid_field' }).max(10_000, 'keyword_too_long').optional(),
  })
  .superRefine((f, ctx) => {
    const pairs: Array<[keyof typeof f, keyof typeof f]> = [
      ['begin', 'end'],
      ['waitMin', 'waitMax'],
      ['serveMin', 'serveMax'],
    ];
    for (const [a, b] of pairs) {
      const lo = f[a];
      const hi = f[b];
      if (typeof lo === 'number' && typeof hi === 'number' && lo > hi)
        ctx.addIssue({ code: 'custom', message: 'range_invalid', path: [b] });
    }
  });
export type HistoryFilter = z.infer<typeof historyFilterSchema>;

export const historyListQuery = historyFilterSchema.safeExtend({
  sort: z.enum(HISTORY_SORTS, { error: 'invalid_field' }).default('createtime'),
  order: z.enum(['asc', 'desc'], { error: 'invalid_field' }).default('desc'),
  p: num(1, 100_000).default(1),
  ps: num(1, 1_000_000)
    .default(PAGE_SIZE_DEFAULT)
    .transform((n) => Math.min(n, PAGE_SIZE_MAX)),
  /** A `next` cursor: the page after it, at the cost of the first. */
  before: optionalText(100).transform((v) => v || undefined),
});
export type HistoryListQuery = z.infer<typeof historyListQuery>;

export const historyIdQuery = z.object({ agentserviceid: idField() });
export const historyMessageQuery = z.object({
  agentserviceid: idField(),
  /** Messages after this seq, from the start (0) on; without it, the newest page (before `before`). */
  after: num(0, 1_000_000_000).optional(),
  before: num(1, 1_000_000_000).optional(),
  ps: num(1, 200).default(HISTORY_LIMITS.messagePage),
});
export const historyMessageDetailQuery = z.object({ id: idField() });
export const historyBlackSchema = z.object({
  agentserviceid: idField(),
  /** Hours; 0 = forever. */
  controltime: num(0, 87_600).default(0),
  description: optionalText(255).transform((v) => v ?? ''),
});
/** POST update: the service summary. Absent keeps; topicid ''/null clears; tagids replaces the tag set. */
export const historyUpdateSchema = z.object({
  agentserviceid: idField(),
  topicid: optionalText(64).transform((v) => (v === undefined ? undefined : v || null)),
  memo: optionalText(1000).transform((v) => (v === null ? '' : v)),
  tagids: idList().optional(),
});
export const historyExpIdsSchema = exportOptions.extend({
  ids: idList()
    .refine((l) => l.length > 0, 'required')
    .refine((l) => l.length <= HISTORY_LIMITS.exportIds, 'too_long'),
});
export const historyExpSearchSchema = historyFilterSchema.safeExtend(exportOptions.shape);
