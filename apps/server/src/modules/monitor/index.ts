import { MONITOR_SWEEP_MS } from '@kefu/protocol';
import type { ModuleRegistrar } from '../../platform/context.js';
import { engineOf } from '../conversation/index.js';
import { AlertSweep } from './alerts.js';
import { MonitorFeed } from './feed.js';
import { installMonitorSocket } from './monitor.socket.js';
import { monitorRoutes } from './monitor.routes.js';
import { ringSweep } from './ring.js';

const feeds = new WeakMap<object, MonitorFeed>();

/** The live feed of an app (tests and the bench reach it through here). */
export const monitorFeedOf = (app: object): MonitorFeed | undefined => feeds.get(app);

/**
 * Monitor and supervision (/api/monitor, A03): views, supervisor actions with their audit trail, the live
 * feed on /im/agent, alerts and ring-no-answer. Runs on the conversation module's engine.
 */
export const registerMonitor: ModuleRegistrar = (app) => {
  const e = engineOf(app);
  if (!e) throw new Error('the monitor module needs the conversation module registered first');
  const feed = new MonitorFeed(e);
  feeds.set(app, feed);
  const unlisten = installMonitorSocket(e, feed);
  monitorRoutes(app, e);
  const alerts = new AlertSweep(e, feed);
  const stop = e.clock.every(MONITOR_SWEEP_MS, async () => {
    if (e.closing.value) return;
    feed.tick();
    await ringSweep(e, feed);
    await alerts.run();
  });
  app.addHook('preClose', async () => {
    stop();
    unlisten();
    feed.stop();
  });
};
