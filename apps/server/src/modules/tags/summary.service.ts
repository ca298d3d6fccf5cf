import type { ConversationSummaryDto, SummarySaveInput } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import * as repo from './tags.repository.js';
import { presentSummary } from './tags.presenter.js';

type Kdb = Db['kysely'];

/** The conversation's summary columns (0009) that the summary is read from. */
interface SummaryColumns {
  id: string;
  orgi: string;
  topicid: string | null;
  summary: string;
  summarytime: number | null;
}

export async function summaryOf(k: Kdb, s: SummaryColumns): Promise<ConversationSummaryDto> {
  const topic = s.topicid ? await repo.findTopic(k, s.orgi, s.topicid) : undefined;
  return presentSummary(s, topic);
}

/**
 * Saves a conversation's service summary (topic and memo; absent fields keep their value). The caller
 * has checked that the user may write this conversation: /api/talk/summary (the chat panel) and the
 * history's POST /api/agentService/update both end here.
 */
export async function saveSummary(
  db: Db,
  s: SummaryColumns,
  input: Omit<SummarySaveInput, 'agentserviceid'>,
  now: number,
): Promise<ConversationSummaryDto> {
  const k = db.kysely;
  let topicid = s.topicid;
  if (input.topicid !== undefined) {
    if (input.topicid && !(await repo.findTopic(k, s.orgi, input.topicid)))
      throw badRequest('invalid_field', { topicid: 'invalid_field' });
    topicid = input.topicid;
  }
  const next = { topicid, summary: input.memo ?? s.summary, summarytime: now };
  await k.updateTable('agent_service').set(next).where('id', '=', s.id).execute();
  return summaryOf(k, { ...s, ...next });
}
