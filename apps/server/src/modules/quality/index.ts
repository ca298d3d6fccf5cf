import type { ModuleRegistrar } from '../../platform/context.js';
import { engineOf } from '../conversation/index.js';
import { listenChanges } from '../conversation/changes.js';
import { remindDue, useEngine } from './notify.js';
import { prescoreQueue } from './prescore.js';
import { registerQualityRoutes } from './quality.routes.js';

/** How often a node looks for appeal windows closing soon. */
const REMIND_EVERY_MS = 10 * 60_000;

/**
 * Quality inspection (issue 17): the routes, the automatic pre-scoring of every ended conversation
 * (queued off the ending call, scored in batches) and the reminders before appeal windows close.
 */
export const registerQuality: ModuleRegistrar = (app, ctx) => {
  registerQualityRoutes(app, ctx);
  const queue = prescoreQueue(ctx.db, (err) => app.log.error({ err }, 'quality pre-scoring failed'));
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    const e = engineOf(app);
    if (e) {
      useEngine(ctx.db, e);
      listenChanges(e, {
        chat: () => undefined,
        agent: () => undefined,
        message: () => undefined,
        conversation(_orgi, event, id) {
          if (event === 'ended') queue.add(id);
        },
      });
    }
    timer = setInterval(() => {
      remindDue(ctx.db).catch((err: unknown) => app.log.error({ err }, 'quality reminders failed'));
    }, REMIND_EVERY_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    await queue.drain();
  });
};
