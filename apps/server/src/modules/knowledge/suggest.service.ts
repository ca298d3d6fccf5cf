import { ROBOT_DEFAULTS, type KbSuggestResult, type KbSuggestionDto } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import * as repo from './kb.repository.js';
import { rank } from './retrieval.js';

/** Suggestions shown to an agent (agent assist); weaker matches than this are not worth a look. */
const ASSIST_MIN = ROBOT_DEFAULTS.suggestThreshold;
const ASSIST_COUNT = 3;

/** Items in force for a text, with their answers, best first. */
export async function suggestFor(
  db: Db,
  orgi: string,
  text: string,
  min = ASSIST_MIN,
): Promise<KbSuggestionDto[]> {
  const now = Date.now();
  const ranked = (await rank(db, orgi, text, { typeids: null, now, limit: ASSIST_COUNT })).filter(
    (r) => r.score >= min,
  );
  const items = new Map(
    (
      await repo.itemsByIds(
        db.kysely,
        orgi,
        ranked.map((r) => r.itemid),
      )
    ).map((i) => [i.id, i]),
  );
  return ranked.flatMap((r) => {
    const i = items.get(r.itemid);
    return i
      ? [{ id: i.id, question: i.question, matched: r.matched, answer: i.answer, score: r.score }]
      : [];
  });
}

/** The latest text the visitor wrote in a conversation ('' when none). */
export async function latestVisitorText(db: Db, agentserviceid: string): Promise<string> {
  const r = await db.kysely
    .selectFrom('chat_message')
    .select('message')
    .where('agentserviceid', '=', agentserviceid)
    .where('calltype', '=', 'in')
    .where('msgtype', '=', 'text')
    .where('withdrawn', '=', 0)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.message ?? '';
}

export async function assist(db: Db, orgi: string, question: string): Promise<KbSuggestResult> {
  const q = question.trim();
  return { question: q, list: q ? await suggestFor(db, orgi, q) : [] };
}
