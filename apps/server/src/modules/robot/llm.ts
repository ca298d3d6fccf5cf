import { z } from 'zod';

/**
 * The optional OpenAI-compatible provider: `POST {baseUrl}/embeddings` and `POST {baseUrl}/chat/completions`
 * with a bearer key. Every call is bounded by the configured timeout (the request is aborted); a timeout, a
 * refused connection, an HTTP error or an answer of the wrong shape is a ProviderError, and callers fall
 * back to retrieval alone.
 */
export interface LlmConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  embeddingModel: string;
  timeoutMs: number;
}

export class ProviderError extends Error {}

/**
 * POST of a JSON body to a provider, bounded by `timeoutMs` (the request is aborted); a timeout, a refused
 * connection, an HTTP error or a body that is not JSON is a ProviderError. Shared with the translators.
 */
export async function postJson(
  url: string,
  body: unknown,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const name = (err as { name?: string }).name;
    throw new ProviderError(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'unreachable');
  }
  if (!res.ok) throw new ProviderError(`http ${res.status}`);
  try {
    return await res.json();
  } catch {
    throw new ProviderError('not json');
  }
}

const post = (cfg: LlmConfig, path: string, body: unknown): Promise<unknown> =>
  postJson(
    `${cfg.baseUrl}${path}`,
    body,
    cfg.timeoutMs,
    cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {},
  );

const embeddingAnswer = z.object({
  data: z.array(z.object({ index: z.number().int().optional(), embedding: z.array(z.number()) })),
});

/** One vector per input, in input order. */
export async function embeddings(cfg: LlmConfig, input: readonly string[]): Promise<number[][]> {
  const r = embeddingAnswer.safeParse(await post(cfg, '/embeddings', { model: cfg.embeddingModel, input }));
  if (!r.success || r.data.data.length !== input.length) throw new ProviderError('bad embeddings');
  const rows = [...r.data.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return rows.map((d) => d.embedding);
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return aa && bb ? ab / Math.sqrt(aa * bb) : 0;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const chatAnswer = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/** A plain chat completion: the first choice's text (a ProviderError when there is none). */
export async function chatText(cfg: LlmConfig, messages: readonly ChatMessage[]): Promise<string> {
  const r = chatAnswer.safeParse(
    await post(cfg, '/chat/completions', { model: cfg.model, messages, temperature: 0 }),
  );
  const text = r.success ? (r.data.choices[0]!.message.content ?? '').trim() : '';
  if (!text) throw new ProviderError('bad completion');
  return text;
}

/**
 * A chat completion whose content must be JSON of `schema` (asked for with response_format json_schema,
 * and checked here: a model that answers anything else is a ProviderError, never read as free text).
 */
export async function chatJson<T>(
  cfg: LlmConfig,
  messages: readonly ChatMessage[],
  name: string,
  jsonSchema: Record<string, unknown>,
  schema: z.ZodType<T>,
): Promise<T> {
  const r = chatAnswer.safeParse(
    await post(cfg, '/chat/completions', {
      model: cfg.model,
      messages,
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name, strict: true, schema: jsonSchema } },
    }),
  );
  if (!r.success) throw new ProviderError('bad completion');
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.data.choices[0]!.message.content ?? '');
  } catch {
    throw new ProviderError('content not json');
  }
  const out = schema.safeParse(parsed);
  if (!out.success) throw new ProviderError('content of the wrong shape');
  return out.data;
}
