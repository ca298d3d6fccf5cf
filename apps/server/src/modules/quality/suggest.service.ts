import { z } from 'zod';
import type { MessageDto, QualitySuggestDto, QualitySuggestionDto } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { Db } from '../../platform/db/database.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { aiServiceOf } from '../robot/aiservice.service.js';
import { chatJson, ProviderError } from '../robot/llm.js';
import { denied } from './access.js';
import { transcript } from './inspect.service.js';
import * as repo from './quality.repository.js';
import { cardVersion, settings } from './scorecard.service.js';

/**
 * Optional LLM suggestions (issue 17), off by default: with the tenant's quality setting `aiSuggest` and
 * the AI service (robot's OpenAI-compatible provider, robot/llm.ts) on, the inspector of an inspection
 * asks for suggested item scores. The transcript and the card's items go to the provider; each suggestion
 * must name an item of the card, stay in its range and quote the transcript verbatim (a quote that does
 * not occur in a message is dropped with its suggestion: an invented quote is never shown). Nothing is
 * written: a suggestion becomes a score only when the inspector accepts it and saves.
 */

/** Messages sent to the model at most (pages of the transcript). */
const MAX_PAGES = 5;

const SUGGEST_SCHEMA = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          labelid: { type: 'string' },
          points: { type: 'integer' },
          quote: { type: 'string' },
        },
        required: ['labelid', 'points', 'quote'],
        additionalProperties: false,
      },
    },
  },
  required: ['items'],
  additionalProperties: false,
};

const answer = z.object({
  items: z.array(z.object({ labelid: z.string(), points: z.number().int(), quote: z.string() })),
});

const SYSTEM = [
  '你是客服质检助手。根据会话记录，为评分表中的每个评分项给出建议分数。',
  'deduct 类评分项：points 为应扣的分数（0 表示不扣分）；add 类评分项：points 为应加的分数。points 不得超过该项的上限。',
  'quote 必须逐字摘自会话记录中某一条消息的原文，作为依据；points 为 0 时 quote 可为空字符串。不得编造引文。',
  '只输出 JSON：{"items": [{"labelid": string, "points": integer, "quote": string}]}。',
].join('\n');

const line = (m: MessageDto) =>
  `[${m.seq}] ${m.calltype === 'in' ? '访客' : m.userid === 'system' ? '系统' : '客服'}：${m.message}`;

/** Whitespace-insensitive containment (models re-wrap lines). */
const squash = (s: string) => s.replace(/\s+/g, '');

export async function suggest(db: Db, p: Principal, id: string): Promise<QualitySuggestDto> {
  const k = db.kysely;
  const r = await repo.findInspection(k, p.orgi, id);
  if (!r) throw notFound();
  if (r.inspector !== p.id) throw denied('quality_not_inspector');
  const [cfg, ai] = await Promise.all([settings(db, p.orgi), aiServiceOf(db, p.orgi)]);
  if (!cfg.aiSuggest || !ai.enabled || !ai.baseUrl || !ai.model) throw badRequest('quality_ai_off');
  const card = await cardVersion(k, r.versionid);
  const messages: MessageDto[] = [];
  let after = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const t = await transcript(k, r.agentserviceid, after);
    messages.push(...t.messages);
    if (!t.more || !t.messages.length) break;
    after = t.messages[t.messages.length - 1]!.seq;
  }
  const texts = messages.filter((m) => !m.withdrawn && m.message.trim() !== '');
  const items = card.items
    .map(
      (i) =>
        `- labelid=${i.id} | ${i.groupname ? `${i.groupname} / ` : ''}${i.name} | ${i.kind} | 0..${i.points}` +
        `${i.fatal ? ' | fatal' : ''}${i.description ? ` | ${i.description}` : ''}`,
    )
    .join('\n');
  let out: z.output<typeof answer>;
  try {
    out = await chatJson(
      ai,
      [
        { role: 'system', content: SYSTEM },
        {
          role: 'user',
          content: `评分表「${card.name}」：\n${items}\n\n会话记录：\n${texts.map(line).join('\n')}`,
        },
      ],
      'quality_suggest',
      SUGGEST_SCHEMA,
      answer,
    );
  } catch (err) {
    if (err instanceof ProviderError) throw badRequest('quality_ai_failed');
    throw err;
  }
  const byId = new Map(card.items.map((i) => [i.id, i]));
  const seen = new Set<string>();
  const kept: QualitySuggestionDto[] = [];
  let dropped = 0;
  for (const s of out.items) {
    const label = byId.get(s.labelid);
    const quote = s.quote.trim();
    const source = quote ? texts.find((m) => squash(m.message).includes(squash(quote))) : undefined;
    const ok =
      label !== undefined &&
      !seen.has(s.labelid) &&
      s.points >= 0 &&
      s.points <= label.points &&
      (quote ? source !== undefined : s.points === 0);
    if (!ok) {
      dropped++;
      continue;
    }
    seen.add(s.labelid);
    kept.push({ labelid: s.labelid, points: s.points, quote, messageid: source?.id ?? null });
  }
  return { items: kept, dropped };
}
