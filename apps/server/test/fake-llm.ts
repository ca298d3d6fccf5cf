import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received: its path, its Authorization header and its JSON body. */
export interface FakeLlmCall {
  path: string;
  auth: string;
  body: Record<string, unknown>;
}

/**
 * A real HTTP server on a free loopback port speaking what an OpenAI-compatible provider speaks, for the
 * tests of the features that call one (robot answers, quality suggestions). `mode` is switched by the
 * test; in 'hang' the request is held until close, so the caller's own timeout is what ends it.
 */
export interface FakeLlm<M extends string> {
  /** The base URL to configure, ending in /v1. */
  url: string;
  mode: M | 'hang';
  calls: FakeLlmCall[];
  close(): Promise<void>;
}

const jsonBody = (r: IncomingMessage): Promise<Record<string, unknown>> =>
  new Promise((resolve) => {
    let s = '';
    r.on('data', (c: Buffer) => (s += c.toString()));
    r.on('end', () => resolve(JSON.parse(s || '{}') as Record<string, unknown>));
  });

/** The content of a chat-completions request's last message (what the feature asked). */
export const lastMessage = (body: Record<string, unknown>): string => {
  const messages = body.messages as Array<{ content: string }>;
  return messages[messages.length - 1]!.content;
};

/** A chat-completions answer with one assistant message. */
export const chatAnswer = (content: string) => ({ choices: [{ message: { role: 'assistant', content } }] });

/** Starts the fake; `respond` gives the JSON answer to each call that is not held ('hang'). */
export async function startFakeLlm<M extends string>(
  mode: M,
  respond: (call: FakeLlmCall, mode: M) => unknown,
): Promise<FakeLlm<M>> {
  const held: Array<() => void> = [];
  const fake: FakeLlm<M> = { url: '', mode, calls: [], close: async () => undefined };
  const server: Server = createServer(async (rq, res) => {
    const call = {
      path: rq.url ?? '',
      auth: String(rq.headers.authorization ?? ''),
      body: await jsonBody(rq),
    };
    fake.calls.push(call);
    const now = fake.mode;
    if (now === 'hang') {
      held.push(() => res.destroy());
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(respond(call, now)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((r) => {
      held.splice(0).forEach((f) => f());
      server.close(() => r());
    });
  return fake;
}
