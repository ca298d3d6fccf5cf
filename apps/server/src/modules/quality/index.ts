import type { ModuleRegistrar } from '../../platform/context.js';
import { engineOf } from '../conversation/index.js';
import { listenChanges } from '../conversation/changes.js';
import { remindDue, useEngine } from './notify.js';
import { prescoreQueue } from './prescore.js';
import { PRESCORE_SWEEP, prescoreSweeper } from './prescore-sweep.js';
import { registerQualityRoutes } from './quality.routes.js';

/** How often a node looks for appeal windows closing soon. */
const REMIND_EVERY_MS = 10 * 60_000;

const sweepers = new WeakMap<object, ReturnType<typeof prescoreSweeper>>();
/** This app's pre-scoring sweeper (tests wait for the start-up run with `idle()`). */
export const prescoreSweeperOf = (app: object) => sweepers.get(app);

/**
 * Quality inspection (issue 17): the routes, the automatic pre-scoring of every ended conversation
 * (queued off the ending call, scored in batches; a sweep at start-up and every 30 s scores what a dead
 * node's queue lost) and the reminders before appeal windows close.
 */
export const registerQuality: ModuleRegistrar = (app, ctx) => {
  registerQualityRoutes(app, ctx);
  const queue = prescoreQueue(ctx.db, (err) => app.log.error({ err }, 'quality pre-scoring failed'));
  const sweeper = prescoreSweeper(ctx.db, (err) =>
    app.log.error({ err }, 'quality pre-scoring sweep failed'),
  );
  sweepers.set(app, sweeper);
  let timer: NodeJS.Timeout | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;
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
    void sweeper.run();
    sweepTimer = setInterval(() => void sweeper.run(), PRESCORE_SWEEP.everyMs);
    sweepTimer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    if (sweepTimer) clearInterval(sweepTimer);
    await queue.drain();
    await sweeper.idle();
  });
};
