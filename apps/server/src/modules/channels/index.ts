import type { FastifyInstance } from 'fastify';
import type { VisitorServerToClientEvents } from '@kefu/protocol';
import type { ModuleRegistrar } from '../../platform/context.js';
import { engineOf } from '../conversation/index.js';
import type { PlatformSink } from '../conversation/engine.js';
import * as repo from './channels.repository.js';
import { processInbound } from './inbound.service.js';
import { drainOutbox, enqueueLine, enqueueNotice, goesOut, sweepLagging } from './outbox.service.js';
import { createRuntimeBase, type ChannelRuntime } from './runtime.js';
import { apiBases } from './api-bases.js';
import { webhookRoutes } from './webhook.routes.js';
import { channelRoutes } from './channels.routes.js';
import { setupRoutes } from './setup.routes.js';
import { satisfactionPrompt } from './satisfaction.js';

const runtimes = new WeakMap<object, ChannelRuntime>();
/** The channel runtime of an app (tests and the bench reach the token cache and the queues through it). */
export const channelRuntimeOf = (app: object): ChannelRuntime | undefined => runtimes.get(app);

/** Received items stuck in 'new' this long are taken up by the sweep (their node stopped). */
const STALE_INBOUND_MS = 30_000;

/** The text a platform user gets for an engine notice (what a widget would show). */
function noticeText<E extends keyof VisitorServerToClientEvents>(
  event: E,
  payload: Parameters<VisitorServerToClientEvents[E]>[0],
): string {
  switch (event) {
    case 'assigned':
    case 'queue':
    case 'end':
    case 'leavemsg':
    case 'satisfaction':
    case 'status':
      return (payload as { message?: string }).message ?? '';
    default:
      return '';
  }
}

function createRuntime(app: FastifyInstance, ctxConfig: Parameters<ModuleRegistrar>[1]): ChannelRuntime {
  const e = engineOf(app);
  if (!e) throw new Error('channels need the conversation module');
  const base = createRuntimeBase(e, {
    bases: ctxConfig.config.channelBases ?? apiBases(),
    redisUrl: ctxConfig.config.redisUrl,
    dataDir: ctxConfig.config.dataDir,
    log: app.log,
  });
  let outboxRunning = false;
  let outboxAgain = false;
  const lanes = new Map<string, Promise<void>>();
  const rt: ChannelRuntime = {
    ...base,
    async idle() {
      for (;;) {
        const pending = [...lanes.values()];
        if (pending.length === 0 && !outboxRunning) return;
        await Promise.all(pending);
        if (outboxRunning) await new Promise((r) => setTimeout(r, 5));
      }
    },
    kickOutbox() {
      if (outboxRunning) {
        outboxAgain = true;
        return;
      }
      outboxRunning = true;
      setImmediate(() => {
        void (async () => {
          try {
            do {
              outboxAgain = false;
              await drainOutbox(rt);
            } while (outboxAgain);
          } catch (err) {
            app.log.error({ err }, 'channel outbox pass failed');
          } finally {
            outboxRunning = false;
          }
        })();
      });
    },
    kickInbound(items) {
      for (const { id, lane } of items) {
        const prev = lanes.get(lane) ?? Promise.resolve();
        const next = prev
          .then(() => processInbound(rt, id))
          .catch((err: unknown) => app.log.error({ err }, 'inbound'));
        lanes.set(lane, next);
        void next.then(() => {
          if (lanes.get(lane) === next) lanes.delete(lane);
        });
      }
    },
  };
  return rt;
}

/** Messaging-platform channels: webhooks, the inbound and outbound queues, setup calls. */
export const registerChannels: ModuleRegistrar = async (app, ctx) => {
  const rt = createRuntime(app, ctx);
  runtimes.set(app, rt);
  const k = rt.e.db.kysely;
  const sink: PlatformSink = {
    notice(userid, event, payload) {
      const text = noticeText(event, payload);
      if (!text) return;
      const agentserviceid = (payload as { agentserviceid?: string | null }).agentserviceid ?? null;
      void repo
        .findUser(k, userid)
        .then(async (u) => {
          if (!u) return;
          // No widget to rate in: the invitation lists the levels to answer by number.
          const out = event === 'satisfaction' ? await satisfactionPrompt(rt, u.orgi, text) : text;
          await enqueueNotice(rt, { orgi: u.orgi, userid, agentserviceid, text: out });
        })
        .catch((err: unknown) => app.log.error({ err }, 'channel notice not queued'));
    },
    message(dto) {
      if (!goesOut(dto)) return;
      void repo
        .findUser(k, dto.usession)
        .then((u) => (u ? enqueueLine(rt, { ...dto, orgi: u.orgi }) : undefined))
        .catch((err: unknown) => app.log.error({ err }, 'channel line not queued'));
    },
  };
  rt.e.platform = sink;
  await webhookRoutes(app, rt);
  channelRoutes(app, rt);
  setupRoutes(app, rt);
  const clock = rt.e.clock;
  const stops = [
    // Retries whose back-off ran out, and sends a stopped node held.
    clock.every(1_000, () => rt.kickOutbox()),
    clock.every(15_000, async () => {
      await sweepLagging(rt);
      const stale = await repo.staleInbound(k, rt.now() - STALE_INBOUND_MS, 100);
      for (const r of stale) {
        const row = await repo.inboundById(k, r.id);
        const item = row ? (JSON.parse(row.payload) as { user?: string }) : {};
        rt.kickInbound([{ id: r.id, lane: `${row?.appid ?? ''}:${item.user ?? ''}` }]);
      }
    }),
  ];
  app.addHook('onReady', async () => rt.kickOutbox());
  app.addHook('preClose', async () => {
    stops.forEach((s) => s());
    await rt.idle();
  });
  app.addHook('onClose', async () => rt.close());
};
