import {
  HANDOFF_PHRASES,
  ROBOT_LIMITS,
  type HandoffReason,
  type RobotAnswerDto,
  type RobotDto,
  type RobotItemRef,
  type RobotSuggestion,
} from '@kefu/protocol';
import { z } from 'zod';
import type { Db } from '../../platform/db/database.js';
import * as kb from '../knowledge/kb.repository.js';
import { rankWith, scorerFor, type Ranked } from '../knowledge/retrieval.js';
import { withSubtypes } from '../knowledge/types.service.js';
import { aiServiceOf, type AiService } from './aiservice.service.js';
import { chatJson, cosine, embeddings, ProviderError } from './llm.js';

/**
 * One visitor question → one outcome (RobotAnswerDto), the same for the test chat and a live chat:
 * 1. a handoff phrase of the visitor (转人工 …) or one of the robot's own keywords → handoff;
 * 2. retrieval (knowledge/retrieval.ts) in the robot's types, optionally re-ranked by embeddings;
 * 3. by the best normalised score: answer (≥ answer threshold), suggest (the items ≥ suggest threshold,
 *    at most three) or fallback; the Nth fallback in a row hands the chat over;
 * 4. optionally a generated answer grounded in the retrieved items, with its citations and a structured
 *    continue | handoff decision. Any provider failure or timeout keeps the retrieval outcome.
 */

const SUGGESTIONS = 3;
/** An answer needs a lead over the runner-up: two items that score alike are offered as suggestions. */
const MARGIN = 0.05;
/** Candidates re-ranked by embeddings / given to the model. */
const RERANK = 8;
const GROUNDING = 3;

const FILLERS = /我要|我想|请|帮我|给我|麻烦|帮忙|找|转接|转|接|可以|能|吗|呢|啊|吧|呀|谢谢|一下|你好|您好/g;
const PHRASES = new Set<string>(HANDOFF_PHRASES.map((p) => p.replace(/\s+/g, '').toLowerCase()));

/** The visitor asks for a human: 转人工 anywhere, or a short request that is only a handoff phrase. */
export function asksForHuman(question: string): boolean {
  const s = question.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (s.includes('转人工')) return true;
  if (s.length > 12) return false;
  return PHRASES.has(s) || PHRASES.has(s.replace(FILLERS, ''));
}

/** A keyword of the robot's own handoff rule that the question contains. */
export function ruleHit(question: string, keywords: readonly string[]): string | null {
  const q = question.toLowerCase();
  return keywords.find((k) => k && q.includes(k.toLowerCase())) ?? null;
}

export interface AnswerContext {
  /** Fallbacks in a row before this question. */
  fallbacks: number;
  now: number;
}

const empty = (robot: RobotDto, start: number): RobotAnswerDto => ({
  action: 'fallback',
  text: robot.fallback,
  score: 0,
  item: null,
  suggestions: [],
  cites: [],
  source: 'retrieval',
  handoff: null,
  ms: Date.now() - start,
});

const handoff = (robot: RobotDto, reason: HandoffReason, start: number): RobotAnswerDto => ({
  ...empty(robot, start),
  action: 'handoff',
  text: robot.handoffmsg,
  handoff: reason,
});

/** Embedding re-rank: half the lexical score, half the cosine of the question and the matched question. */
async function rerank(ai: AiService, question: string, ranked: Ranked[]): Promise<Ranked[]> {
  const vectors = await embeddings(ai, [question, ...ranked.map((r) => r.matched)]);
  const q = vectors[0]!;
  return ranked
    .map((r, i) => ({
      ...r,
      score: Math.round((0.5 * r.score + 0.5 * Math.max(0, cosine(q, vectors[i + 1]!))) * 1000) / 1000,
    }))
    .sort((a, b) => b.score - a.score);
}

const generated = z.object({
  answer: z.string().max(4000),
  cites: z.array(z.string()).max(GROUNDING),
  action: z.enum(['continue', 'handoff']),
});
const GENERATED_SCHEMA = {
  type: 'object',
  properties: {
    answer: { type: 'string' },
    cites: { type: 'array', items: { type: 'string' } },
    action: { type: 'string', enum: ['continue', 'handoff'] },
  },
  required: ['answer', 'cites', 'action'],
  additionalProperties: false,
};

const SYSTEM = [
  '你是在线客服机器人。只能依据用户消息中给出的知识条目回答访客的问题，不得编造条目以外的信息。',
  '用访客的语言简洁回答。条目不能回答问题时，answer 为空字符串，cites 为空数组。',
  'cites 填写你所依据的条目编号。访客明确要求人工、投诉或情绪激动时 action 为 "handoff"，否则为 "continue"。',
  '只输出 JSON：{"answer": string, "cites": string[], "action": "continue" | "handoff"}。',
].join('\n');

/** A generated answer grounded in the items; null when the model had nothing grounded to say. */
async function generate(
  ai: AiService,
  question: string,
  items: ReadonlyArray<{ id: string; question: string; answer: string }>,
): Promise<{ text: string; cites: RobotItemRef[]; handoff: boolean } | null> {
  const context = items.map((i) => `[${i.id}] 问：${i.question}\n答：${i.answer}`).join('\n\n');
  const out = await chatJson(
    ai,
    [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: `知识条目：\n${context}\n\n访客问题：${question}` },
    ],
    'robot_reply',
    GENERATED_SCHEMA,
    generated,
  );
  if (out.action === 'handoff') return { text: '', cites: [], handoff: true };
  const byId = new Map(items.map((i) => [i.id, i]));
  const cites = [...new Set(out.cites)].flatMap((id) => {
    const i = byId.get(id);
    return i ? [{ id: i.id, question: i.question }] : [];
  });
  // Grounded only: an answer that cites none of the given items is not used.
  if (!out.answer.trim() || cites.length === 0) return null;
  return { text: out.answer.trim(), cites, handoff: false };
}

/**
 * The outcome of a ranked list: answer when the best item reaches the answer threshold with a lead over the
 * runner-up, suggest the items above the suggestion threshold, else fall back.
 */
export function outcome(
  ranked: ReadonlyArray<{ score: number }>,
  t: Pick<RobotDto, 'answerThreshold' | 'suggestThreshold'>,
): 'answer' | 'suggest' | 'fallback' {
  const top = ranked[0];
  if (!top) return 'fallback';
  const suggested = ranked.slice(0, SUGGESTIONS).filter((r) => r.score >= t.suggestThreshold).length;
  const clear = !ranked[1] || top.score - ranked[1].score >= MARGIN;
  if (top.score >= t.answerThreshold && (clear || suggested < 2)) return 'answer';
  return suggested ? 'suggest' : 'fallback';
}

const suggestText = (robot: RobotDto, s: readonly RobotSuggestion[]) =>
  [robot.suggestmsg, ...s.map((x, i) => `${i + 1}. ${x.question}`)].join('\n');

/** Answers one question for a robot (see the module comment). */
export async function answer(
  db: Db,
  orgi: string,
  robot: RobotDto,
  question: string,
  c: AnswerContext,
): Promise<RobotAnswerDto> {
  const start = Date.now();
  const q = question.trim().slice(0, ROBOT_LIMITS.question);
  if (!q) return empty(robot, start);
  if (asksForHuman(q)) return handoff(robot, 'phrase', start);
  if (ruleHit(q, robot.handoffKeywords)) return handoff(robot, 'rule', start);

  const ai = await aiServiceOf(db, orgi);
  const llm = ai.enabled && ai.baseUrl !== '';
  const typeids = robot.kbtypes.length ? await withSubtypes(db.kysely, orgi, robot.kbtypes) : null;
  const scorer = await scorerFor(db, orgi, q);
  let ranked = await rankWith(db, orgi, scorer, { typeids, now: c.now, limit: llm ? RERANK : SUGGESTIONS });
  const source: RobotAnswerDto['source'] = 'retrieval';
  if (llm && ai.rerank && ai.embeddingModel && ranked.length > 1) {
    try {
      ranked = await rerank(ai, q, ranked);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
    }
  }
  const items = new Map(
    (
      await kb.itemsByIds(
        db.kysely,
        orgi,
        ranked.slice(0, SUGGESTIONS).map((r) => r.itemid),
      )
    ).map((i) => [i.id, i]),
  );
  const top = ranked[0];
  const topItem = top && items.get(top.itemid);
  const suggestions: RobotSuggestion[] = ranked
    .slice(0, SUGGESTIONS)
    .filter((r) => r.score >= robot.suggestThreshold && items.has(r.itemid))
    .map((r) => ({ id: r.itemid, question: items.get(r.itemid)!.question, score: r.score }));
  const base = {
    score: top?.score ?? 0,
    item: topItem ? { id: topItem.id, question: topItem.question } : null,
    suggestions,
  };

  if (llm && ai.generate && ai.model && suggestions.length) {
    try {
      const g = await generate(
        ai,
        q,
        suggestions.slice(0, GROUNDING).map((s) => items.get(s.id)!),
      );
      if (g?.handoff) return { ...handoff(robot, 'llm', start), ...base, source: 'llm' };
      if (g)
        return {
          ...base,
          action: 'answer',
          text: g.text,
          cites: g.cites,
          source: 'llm',
          handoff: null,
          ms: Date.now() - start,
        };
    } catch (err) {
      // Timeout or provider failure: the retrieval outcome below.
      if (!(err instanceof ProviderError)) throw err;
    }
  }

  const decided = outcome(ranked, robot);
  if (decided === 'answer' && topItem)
    return {
      ...base,
      action: 'answer',
      text: topItem.answer,
      cites: [base.item!],
      source,
      handoff: null,
      ms: Date.now() - start,
    };
  if (suggestions.length)
    return {
      ...base,
      action: 'suggest',
      text: suggestText(robot, suggestions),
      cites: [],
      source,
      handoff: null,
      ms: Date.now() - start,
    };
  if (robot.handoffFallbacks > 0 && c.fallbacks + 1 >= robot.handoffFallbacks)
    return { ...handoff(robot, 'fallbacks', start), ...base, suggestions: [] };
  return { ...empty(robot, start), ...base, suggestions: [] };
}
