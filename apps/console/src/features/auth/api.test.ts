import { afterEach, describe, expect, it, vi } from 'vitest';
import { updatePassword } from './api';

afterEach(() => vi.restoreAllMocks());

describe('password change call', () => {
  it('is a POST with a JSON body: the passwords never travel in the URL', async () => {
    const fetch = vi.spyOn(window, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ success: true, data: null, msg: 'ok', code: 200 }), {
        headers: { 'content-type': 'application/json' },
      }),
    );
    await updatePassword('Old#Secret1', 'New#Secret2');
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe('/api/agent/my/updatePassword');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ oldpassword: 'Old#Secret1', password: 'New#Secret2' });
    expect(new Headers(init?.headers).get('content-type')).toMatch(/application\/json/);
  });
});
