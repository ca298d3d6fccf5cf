import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_TEXTS } from '@kefu/protocol';

const notifyError = vi.fn();
vi.mock('../lib/notify', () => ({
  notify: { error: notifyError, success: vi.fn() },
  setMessageInstance: vi.fn(),
}));

const { useSession } = await import('./session');

const agent = (usertype: string, auth: Record<string, true>) => ({
  success: true,
  code: 200,
  msg: 'ok',
  data: { user: { id: 'u1', username: 'a', usertype }, organ: null, auth },
});

function serve(body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status: 200 }));
  vi.stubGlobal('fetch', fetch);
  window.fetch = fetch as typeof window.fetch;
  return fetch;
}

beforeEach(() => {
  localStorage.clear();
  notifyError.mockClear();
  useSession.setState({ status: 'anon', info: null, routes: [] });
});
afterEach(() => vi.unstubAllGlobals());

describe('start-up (spec section 4)', () => {
  it('without a token stays anonymous and calls nothing', async () => {
    const fetch = serve({});
    await useSession.getState().bootstrap();
    expect(useSession.getState().status).toBe('anon');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a non-admin without permissions is refused with the spec message', async () => {
    localStorage.setItem('token', 't');
    serve(agent('1', {}));
    await useSession.getState().bootstrap();
    expect(notifyError).toHaveBeenCalledWith(CLIENT_TEXTS.noPermission);
    expect(useSession.getState().status).toBe('anon');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('loads /api/agent with the token and builds the permitted routes', async () => {
    localStorage.setItem('token', 't');
    const fetch = serve(agent('1', { A09: true, A09_A02_A02: true }));
    await useSession.getState().bootstrap();
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/agent');
    expect((init.headers as Record<string, string>).authorization).toBe('t');
    const s = useSession.getState();
    expect(s.status).toBe('ready');
    expect(s.routes.map((r) => r.fullPath)).toEqual(['/setup']);
    expect(s.routes[0].redirect).toBe('role');
    expect(JSON.parse(localStorage.getItem('authorities') ?? '{}')).toEqual({ A09: true, A09_A02_A02: true });
  });
});

describe('logout', () => {
  it('clears token, userInfo, authorities and authmenu', async () => {
    for (const k of ['token', 'userInfo', 'authorities', 'authmenu']) localStorage.setItem(k, 'x');
    serve({ success: true, code: 200, msg: 'ok', data: null });
    useSession.setState({ status: 'ready' });
    await useSession.getState().logout();
    for (const k of ['token', 'userInfo', 'authorities', 'authmenu'])
      expect(localStorage.getItem(k)).toBeNull();
    expect(useSession.getState().status).toBe('anon');
  });

  it('inside an iframe tells the parent instead', async () => {
    const post = vi.fn();
    const parent = { postMessage: post } as unknown as Window;
    const spy = vi.spyOn(window, 'parent', 'get').mockReturnValue(parent);
    localStorage.setItem('token', 'x');
    await useSession.getState().logout();
    expect(post).toHaveBeenCalledWith({ type: 'logout' }, '*');
    spy.mockRestore();
  });
});
