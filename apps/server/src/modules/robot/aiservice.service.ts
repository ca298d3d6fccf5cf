import {
  AI_SERVICE_DEFAULTS,
  type AiServiceDto,
  type AiServiceSaveInput,
  type AiServiceTestDto,
} from '@kefu/protocol';
import { z } from 'zod';
import type { Principal } from '../../platform/auth/principal.js';
import type { Db } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import { orgSettings } from '../../platform/settings/org-settings.js';
import { chatJson, embeddings, ProviderError, type LlmConfig } from './llm.js';

/**
 * The AI service settings (/api/xiaoe/serviceai, A09_A05_A01): one document per tenant (org_setting
 * `ai.service`), off by default. The key is stored but never sent back.
 */
export const AI_SETTING = 'ai.service';

export interface AiService extends LlmConfig {
  enabled: boolean;
  rerank: boolean;
  generate: boolean;
}

const DEFAULT: AiService = { ...AI_SERVICE_DEFAULTS, apiKey: '' };

function read(raw: unknown): AiService {
  if (!raw || typeof raw !== 'object') return DEFAULT;
  const v = raw as Partial<Record<keyof AiService, unknown>>;
  const str = (x: unknown, d: string) => (typeof x === 'string' ? x : d);
  const bool = (x: unknown) => x === true;
  return {
    enabled: bool(v.enabled),
    baseUrl: str(v.baseUrl, ''),
    apiKey: str(v.apiKey, ''),
    model: str(v.model, ''),
    embeddingModel: str(v.embeddingModel, ''),
    rerank: bool(v.rerank),
    generate: bool(v.generate),
    timeoutMs: typeof v.timeoutMs === 'number' ? v.timeoutMs : DEFAULT.timeoutMs,
  };
}

export const aiServiceOf = async (db: Db, orgi: string): Promise<AiService> =>
  (await orgSettings(db).get(orgi, AI_SETTING, read)).value;

const present = (s: AiService): AiServiceDto => {
  const { apiKey, ...rest } = s;
  return { ...rest, hasKey: apiKey !== '' };
};

export async function get(db: Db, p: Principal): Promise<AiServiceDto> {
  return present(await aiServiceOf(db, p.orgi));
}

export async function save(db: Db, p: Principal, input: AiServiceSaveInput): Promise<AiServiceDto> {
  const cur = await aiServiceOf(db, p.orgi);
  const next: AiService = {
    enabled: input.enabled ?? cur.enabled,
    baseUrl: input.baseUrl ?? cur.baseUrl,
    apiKey: input.apiKey === undefined || input.apiKey === null ? cur.apiKey : input.apiKey,
    model: input.model ?? cur.model,
    embeddingModel: input.embeddingModel ?? cur.embeddingModel,
    rerank: input.rerank ?? cur.rerank,
    generate: input.generate ?? cur.generate,
    timeoutMs: input.timeoutMs ?? cur.timeoutMs,
  };
  if (next.enabled && !next.baseUrl) throw badRequest('required', { baseUrl: 'required' });
  await orgSettings(db).save(p.orgi, AI_SETTING, next);
  return present(next);
}

const pong = z.object({ ok: z.boolean() });

/** One call of each configured kind with the stored settings: reachable, how fast, what failed. */
export async function test(db: Db, p: Principal): Promise<AiServiceTestDto> {
  const s = await aiServiceOf(db, p.orgi);
  if (!s.baseUrl) throw badRequest('ai_service_off');
  const timed = async (fn: () => Promise<unknown>) => {
    const start = Date.now();
    try {
      await fn();
      return { ok: true, ms: Date.now() - start, error: '' };
    } catch (err) {
      return {
        ok: false,
        ms: Date.now() - start,
        error: err instanceof ProviderError ? err.message : 'failed',
      };
    }
  };
  return {
    embeddings: s.embeddingModel ? await timed(() => embeddings(s, ['ping'])) : null,
    chat: s.model
      ? await timed(() =>
          chatJson(
            s,
            [{ role: 'user', content: 'Answer {"ok": true} as JSON.' }],
            'ping',
            {
              type: 'object',
              properties: { ok: { type: 'boolean' } },
              required: ['ok'],
              additionalProperties: false,
            },
            pong,
          ),
        )
      : null,
  };
}
