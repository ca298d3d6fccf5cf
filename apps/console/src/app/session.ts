import { create } from 'zustand';
import { CLIENT_TEXTS, SUPER_USERTYPE, type SessionConfigDto } from '@kefu/protocol';
import { fetchAgent, revokeToken, type AgentInfo } from '../features/auth/api';
import { sessionConfigApi } from '../features/sessionConfig/api';
import { onUnauthorized } from '../lib/api';
import { notify } from '../lib/notify';
import { clearSessionStorage, getToken, storage } from '../lib/storage';
import { stopAllTimers } from '../lib/timers';
import { permittedRoutes, type PermittedRoute } from './permittedRoutes';

export type SessionStatus = 'anon' | 'loading' | 'ready';

interface SessionState {
  status: SessionStatus;
  info: AgentInfo | null;
  routes: PermittedRoute[];
  /** The tenant's session config (spec section 4 step 4); null until loaded or when it failed. */
  sessionConfig: SessionConfigDto | null;
  /** A setup screen saved the session config: keep the loaded copy current. */
  setSessionConfig: (cfg: SessionConfigDto) => void;
  /** Spec section 4: with a token, load user info first, then build the routes by permission. */
  bootstrap: () => Promise<void>;
  /** Forget the session locally (401, password change): storage cleared, timers stopped. */
  expire: () => void;
  /** The shell's logout button. */
  logout: () => Promise<void>;
}

/** Lets the session move the browser without holding a router (it is rebuilt per session). */
let navigate: (path: string) => void = (path) => window.history.replaceState(null, '', path);
export const setNavigator = (fn: (path: string) => void): void => {
  navigate = fn;
};

export const useSession = create<SessionState>((set, get) => ({
  status: getToken() ? 'loading' : 'anon',
  info: null,
  routes: [],
  sessionConfig: null,

  setSessionConfig(cfg) {
    set({ sessionConfig: cfg });
  },

  async bootstrap() {
    if (!getToken()) {
      set({ status: 'anon', info: null, routes: [], sessionConfig: null });
      return;
    }
    set({ status: 'loading' });
    let info: AgentInfo;
    try {
      info = await fetchAgent();
    } catch {
      // A 401 expires the session via the request layer; a network failure keeps the token so a
      // reload can retry, but the user still lands on the login page.
      set({ status: 'anon', info: null, routes: [], sessionConfig: null });
      return;
    }
    const auth = info.auth ?? {};
    if (info.user.usertype !== SUPER_USERTYPE && Object.keys(auth).length === 0) {
      notify.error(CLIENT_TEXTS.noPermission);
      clearSessionStorage();
      navigate('/login');
      set({ status: 'anon', info: null, routes: [], sessionConfig: null });
      return;
    }
    // Step 4: the session config; a failure leaves the defaults (null) rather than blocking the console.
    const sessionConfig = await sessionConfigApi.load().catch(() => null);
    const routes = permittedRoutes({ usertype: info.user.usertype, auth });
    storage.setJson('userInfo', info.user);
    storage.setJson('authorities', auth);
    storage.setJson(
      'authmenu',
      routes.map((r) => r.fullPath),
    );
    set({ status: 'ready', info, routes, sessionConfig });
  },

  expire() {
    stopAllTimers();
    clearSessionStorage();
    navigate('/login');
    set({ status: 'anon', info: null, routes: [], sessionConfig: null });
  },

  async logout() {
    // Inside an iframe the host page owns the session: tell it instead of navigating ourselves.
    if (window.parent !== window) {
      window.parent.postMessage({ type: 'logout' }, '*');
      return;
    }
    stopAllTimers();
    await revokeToken().catch(() => undefined);
    get().expire();
  },
}));

onUnauthorized(() => useSession.getState().expire());
