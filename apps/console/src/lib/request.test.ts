import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_TEXTS } from '@kefu/protocol';
import { apiUrl, createRequester, RequestError, type RequestEnv } from './request';

type Handler = (url: string, init: RequestInit) => Promise<Response>;

const json = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );

/** A fetch that never answers, but rejects like the real one when aborted. */
const hanging: Handler = (_url, init) =>
  new Promise((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });

function setup(handler: Handler, over: Partial<RequestEnv> = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  const env: RequestEnv = {
    fetch: ((url: string, init: RequestInit) => {
      calls.push({ url, init });
      return handler(url, init);
    }) as typeof fetch,
    getToken: () => 'tok-1',
    toast: vi.fn(),
    onUnauthorized: vi.fn(),
    keyText: (k) => (k === 'name_repeat' ? '名称重复' : undefined),
    currentPath: () => '/setup/section',
    now: () => Date.now(),
    warn: vi.fn(),
    ...over,
  };
  return { request: createRequester(env), env, calls };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('request layer', () => {
  it('prefixes /api, sends the token, resolves data on success', async () => {
    const { request, calls } = setup(() => json({ success: true, data: { a: 1 }, msg: '', code: 200 }));
    await expect(request('/organ/list', { params: { p: 1, q: '' } })).resolves.toEqual({ a: 1 });
    expect(calls[0].url).toBe('/api/organ/list?p=1');
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('tok-1');
    expect(apiUrl('/tokens/info')).toBe('/tokens/info');
  });

  it('sends a FormData body as multipart (no JSON content type) and keeps the error fields', async () => {
    const fields = { '3.phone': 'phone_format' };
    const { request, calls } = setup(() =>
      json({ success: false, code: 400, msg: 'bad', key: 'import_rows_invalid', fields }),
    );
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.xlsx');
    const err = await request('/contacts/import', { body: form, silent: true }).catch((e: unknown) => e);
    expect(calls[0].init.body).toBe(form);
    expect(calls[0].init.method).toBe('POST');
    expect((calls[0].init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    expect(err).toMatchObject({ key: 'import_rows_invalid', fields });
  });

  it('shows the i18n text of a known key, else msg, and rejects', async () => {
    const { request, env } = setup(() => json({ success: false, code: 409, msg: 'dup', key: 'name_repeat' }));
    await expect(request('/role/save', { body: {} })).rejects.toBeInstanceOf(RequestError);
    expect(env.toast).toHaveBeenCalledWith('名称重复');
  });

  it('waits for a key text that comes asynchronously (the catalogue loaded on demand), for 401 too', async () => {
    const keyText = (k: string) => Promise.resolve(k === 'password_wrong' ? 'Wrong password' : undefined);
    const { request, env } = setup(
      () => json({ success: false, code: 400, msg: 'x', key: 'password_wrong' }),
      {
        keyText,
      },
    );
    await expect(request('/a')).rejects.toMatchObject({ message: 'Wrong password' });
    expect(env.toast).toHaveBeenCalledWith('Wrong password');
    vi.advanceTimersByTime(2001);
    const expired = setup(() => json({ success: false, code: 401, msg: 'x', key: 'password_wrong' }), {
      keyText,
    });
    await expired.request('/b').catch(() => undefined);
    expect(expired.env.toast).toHaveBeenCalledWith('Wrong password');
  });

  it('throttles error toasts to one per 2 s', async () => {
    const { request, env } = setup(() => json({ success: false, code: 400, msg: 'bad' }));
    await request('/a').catch(() => undefined);
    await request('/b').catch(() => undefined);
    expect(env.toast).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2001);
    await request('/c').catch(() => undefined);
    expect(env.toast).toHaveBeenCalledTimes(2);
  });

  it('never toasts codes 10702 and 10026, nor paths containing sidebar, nor silent calls', async () => {
    for (const code of [10702, 10026]) {
      const { request, env } = setup(() => json({ success: false, code, msg: 'x' }));
      await request('/x').catch(() => undefined);
      expect(env.toast).not.toHaveBeenCalled();
    }
    const side = setup(() => json({ success: false, code: 400, msg: 'x' }));
    await side.request('/agent/sidebar/list').catch(() => undefined);
    await side.request('/y', { silent: true }).catch(() => undefined);
    expect(side.env.toast).not.toHaveBeenCalled();
  });

  it('on 401 shows msg, then after 800 ms logs out', async () => {
    const { request, env } = setup(() => json({ success: false, code: 401, msg: '登录已过期' }, 401));
    await request('/agent').catch(() => undefined);
    expect(env.toast).toHaveBeenCalledWith('登录已过期');
    expect(env.onUnauthorized).not.toHaveBeenCalled();
    vi.advanceTimersByTime(799);
    expect(env.onUnauthorized).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(env.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it("on 401 without msg shows '未登录'; on /thirdLogin no toast but still redirects", async () => {
    const a = setup(() => json({}, 401));
    await a.request('/agent').catch(() => undefined);
    expect(a.env.toast).toHaveBeenCalledWith(CLIENT_TEXTS.notLoggedIn);
    const b = setup(() => json({ success: false, code: 401, msg: 'no' }), {
      currentPath: () => '/thirdLogin',
    });
    await b.request('/agent').catch(() => undefined);
    expect(b.env.toast).not.toHaveBeenCalled();
    vi.advanceTimersByTime(800);
    expect(b.env.onUnauthorized).toHaveBeenCalled();
  });

  it('times out after 120 s with the timeout text', async () => {
    const { request, env } = setup(hanging);
    const p = request('/slow').catch((e: unknown) => e);
    vi.advanceTimersByTime(120_000);
    const err = (await p) as RequestError;
    expect(err.timeout).toBe(true);
    expect(env.toast).toHaveBeenCalledWith(CLIENT_TEXTS.timeout);
  });

  it('treats no response (network error) like a timeout', async () => {
    const { request, env } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await request('/x').catch(() => undefined);
    expect(env.toast).toHaveBeenCalledWith(CLIENT_TEXTS.timeout);
  });

  it('a new request to the same path cancels the pending one silently', async () => {
    let n = 0;
    const { request, env } = setup((url, init) =>
      n++ === 0 ? hanging(url, init) : json({ success: true, data: 'second', msg: '', code: 200 }),
    );
    const first = request('/user/page', { params: { p: 1 } }).catch((e: unknown) => e);
    const second = request('/user/page', { params: { p: 2 } });
    await expect(second).resolves.toBe('second');
    const err = (await first) as RequestError;
    expect(err.cancelled).toBe(true);
    expect(env.toast).not.toHaveBeenCalled();
  });

  it('server failure without a message shows the server-error text', async () => {
    const { request, env } = setup(() => Promise.resolve(new Response('oops', { status: 502 })));
    await request('/x').catch(() => undefined);
    expect(env.toast).toHaveBeenCalledWith(CLIENT_TEXTS.serverError);
  });

  it('logs a network delay over 5000 ms', async () => {
    let t = 0;
    const { request, env } = setup(() => json({ success: true, data: 1, msg: '', code: 200 }), {
      now: () => {
        t += 5001;
        return t;
      },
    });
    await request('/x');
    expect(env.warn).toHaveBeenCalledTimes(1);
  });
});
