import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPlatformChannel } from '@kefu/protocol';
import { queryStrings } from './adapters/adapter.js';
import * as repo from './channels.repository.js';
import { acceptItems } from './inbound.service.js';
import { pullKf } from './kf-sync.js';
import { douyinAuthorised } from './douyin-oauth.js';
import { ADAPTERS, type ChannelRuntime } from './runtime.js';

/** Pushes are small; anything bigger is not a platform's. */
const BODY_LIMIT = 512 * 1024;

/** App rows are read once per few seconds per node, not once per push (a setup change shows within that). */
const APP_TTL_MS = 5_000;
const appCache = new WeakMap<
  ChannelRuntime,
  Map<string, { at: number; row: Awaited<ReturnType<typeof repo.findApp>> }>
>();
/** A setup change on this node is seen at once (other nodes see it within APP_TTL_MS). */
export const forgetApp = (rt: ChannelRuntime, id: string): void => void appCache.get(rt)?.delete(id);

async function appCached(rt: ChannelRuntime, id: string) {
  let m = appCache.get(rt);
  if (!m) appCache.set(rt, (m = new Map()));
  const hit = m.get(id);
  if (hit && Date.now() - hit.at < APP_TTL_MS) return hit.row;
  const row = await repo.findApp(rt.e.db.kysely, id);
  if (m.size > 1000) m.clear();
  m.set(id, { at: Date.now(), row });
  return row;
}

/** The push URL of an app, as the setup screens show it (relative to the server's public origin). */
export const webhookPath = (channel: string, appid: string): string => `/webhook/${channel}/${appid}`;

/**
 * Platform pushes, outside /api (no login; the platform's signature is the check). The body is read raw:
 * the signature covers its exact bytes, and nothing is parsed before it holds. A push is answered as soon
 * as its items are stored; the engine's work follows the answer.
 */
export async function webhookRoutes(app: FastifyInstance, rt: ChannelRuntime): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );

    const resolve = async (req: FastifyRequest, reply: FastifyReply) => {
      const { channel, id } = req.params as { channel: string; id: string };
      const row = isPlatformChannel(channel) ? await appCached(rt, id) : undefined;
      const adapter = isPlatformChannel(channel) ? ADAPTERS[channel] : undefined;
      if (!row || row.channel !== channel || !adapter) {
        req.log.warn({ channel, id }, 'push for an unknown channel app');
        await reply.code(404).type('text/plain').send('');
        return null;
      }
      return { row, adapter };
    };

    scope.get('/webhook/:channel/:id', async (req, reply) => {
      const r = await resolve(req, reply);
      if (!r) return reply;
      const body = r.adapter.handshake(r.row, queryStrings(req.query));
      if (body === null) {
        req.log.warn({ app: r.row.id }, 'push handshake refused (signature)');
        return reply.code(403).type('text/plain').send('');
      }
      // Byte-exact: no quotes, no newline.
      return reply.type('text/plain; charset=utf-8').send(body);
    });

    // Douyin's OAuth redirect after the business account authorised the app: code → user token (kept with
    // its refresh token), and the account's open_id becomes the account the messages name.
    scope.get('/webhook/douyin/:id/oauth', async (req, reply) => {
      const { id } = req.params as { id: string };
      const code = queryStrings(req.query).code ?? '';
      const app = await repo.findApp(rt.e.db.kysely, id);
      if (!app || app.channel !== 'douyin' || !code) return reply.code(404).type('text/plain').send('');
      await douyinAuthorised(rt, app, code);
      return reply.type('text/plain; charset=utf-8').send('ok');
    });

    scope.post('/webhook/:channel/:id', async (req, reply) => {
      const r = await resolve(req, reply);
      if (!r) return reply;
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const got = r.adapter.receive(r.row, { query: queryStrings(req.query), headers: req.headers, raw });
      if (!got.ok) {
        req.log.warn({ app: r.row.id, reason: got.reason }, 'push refused');
        return reply.code(got.status).type('text/plain').send('');
      }
      await acceptItems(rt, r.row, got.items);
      if (got.pull) {
        const { scope: account, token } = got.pull;
        pullKf(rt, r.row, account, token).catch((err: unknown) =>
          req.log.error({ app: r.row.id, err }, 'kf sync_msg failed'),
        );
      }
      return reply.type(got.contentType ?? 'text/plain; charset=utf-8').send(got.body);
    });
  });
}
