import type { ModuleRegistrar } from '../../platform/context.js';
import { realScheduler } from '../../platform/jobs/scheduler.js';
import { createRealtime } from '../../platform/realtime/io.js';
import { clientAddress, proxyTrust } from '../../platform/http/security-config.js';
import { setOnStateProvider } from '../agent/on-state.js';
import type { Engine } from './engine.js';
import { getAgentState } from './agentstate.service.js';
import { agentStateRoutes } from './agentstate.routes.js';
import { talkRoutes } from './talk.routes.js';
import { installAgentSocket } from './agent.socket.js';
import { installVisitorSocket } from './visitor.socket.js';
import { startTimers } from './timers.js';
import { messageWriter } from './message.service.js';
import { watchRevocations } from './socket-revocation.js';

const engines = new WeakMap<object, Engine>();

/** The engine of an app (media and other modules reach the realtime side through it). */
export const engineOf = (app: object): Engine | undefined => engines.get(app);

/** Live conversations: realtime namespaces, agent states, routing, /api/talk, session timers. */
export const registerConversation: ModuleRegistrar = (app, ctx) => {
  const closing = { value: false };
  app.addHook('preClose', async () => {
    closing.value = true;
    // Before the sockets close (io.ts, next hook): accepted messages are committed and acknowledged.
    await messageWriter(ctx.db).drain();
  });
  // Sends that arrived while the sockets were closing: committed before the database closes.
  app.addHook('onClose', async () => messageWriter(ctx.db).drain());
  const rt = createRealtime(app, ctx.config.redisUrl);
  const trust = proxyTrust(ctx.config.security.trustProxy);
  const e: Engine = {
    db: ctx.db,
    rt,
    clock: ctx.scheduler ?? realScheduler,
    closing,
    clientAddress: (peer, forwardedFor) => clientAddress(peer, forwardedFor, trust),
  };
  engines.set(app, e);
  setOnStateProvider((userid) => getAgentState(e, userid));
  installAgentSocket(e);
  installVisitorSocket(e);
  agentStateRoutes(app, e);
  talkRoutes(app, e);
  const stop = startTimers(e);
  // Logout, password change, disabling or a change of rights reach open agent sockets on every node.
  const unwatch = watchRevocations(e);
  app.addHook('preClose', async () => {
    stop();
    unwatch();
  });
};
