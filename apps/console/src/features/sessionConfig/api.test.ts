import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../lib/notify', () => ({
  notify: { error: vi.fn(), success: vi.fn() },
  setMessageInstance: vi.fn(),
}));

const { useSession } = await import('../../app/session');
const { transferPromptMs } = await import('./api');

const envelope = (data: unknown) => ({ success: true, code: 200, msg: 'ok', data });

beforeEach(() => {
  localStorage.clear();
  useSession.setState({ status: 'anon', info: null, routes: [], sessionConfig: null });
});
afterEach(() => vi.unstubAllGlobals());

describe('session config at start-up (spec section 4 step 4)', () => {
  it('is loaded after the user info and kept in the session store', async () => {
    localStorage.setItem('token', 't');
    const fetch = vi.fn(async (url: string) => {
      const body = url.startsWith('/api/sessionConfig')
        ? envelope({ id: 'kefu', transtiptimeout: 12, msgtranslate: true })
        : envelope({ user: { id: 'u1', username: 'a', usertype: '1' }, organ: null, auth: { A01: true } });
      return new Response(JSON.stringify(body), { status: 200 });
    });
    vi.stubGlobal('fetch', fetch);
    window.fetch = fetch as unknown as typeof window.fetch;
    await useSession.getState().bootstrap();
    const urls = fetch.mock.calls.map((c) => c[0]);
    expect(urls).toEqual(['/api/agent', '/api/sessionConfig']);
    const s = useSession.getState();
    expect(s.status).toBe('ready');
    expect(s.sessionConfig).toMatchObject({ transtiptimeout: 12, msgtranslate: true });
  });

  it('a failed load leaves the defaults and does not block the console', async () => {
    localStorage.setItem('token', 't');
    const fetch = vi.fn(async (url: string) =>
      url.startsWith('/api/sessionConfig')
        ? new Response('{}', { status: 500 })
        : new Response(
            JSON.stringify(
              envelope({
                user: { id: 'u1', username: 'a', usertype: '1' },
                organ: null,
                auth: { A01: true },
              }),
            ),
            { status: 200 },
          ),
    );
    vi.stubGlobal('fetch', fetch);
    window.fetch = fetch as unknown as typeof window.fetch;
    await useSession.getState().bootstrap();
    expect(useSession.getState().status).toBe('ready');
    expect(useSession.getState().sessionConfig).toBeNull();
  });
});

describe('transfer prompt duration', () => {
  const cfg = (transtiptimeout: number) => ({ transtiptimeout }) as Parameters<typeof transferPromptMs>[1];
  it("uses the request's timeout, else transtiptimeout, else 5 s", () => {
    expect(transferPromptMs(8000, cfg(12))).toBe(8000);
    expect(transferPromptMs(0, cfg(12))).toBe(12_000);
    expect(transferPromptMs(undefined, cfg(0))).toBe(5000);
    expect(transferPromptMs(undefined, null)).toBe(5000);
  });
});
