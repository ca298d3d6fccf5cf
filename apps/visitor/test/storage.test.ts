import { beforeEach, describe, expect, it } from 'vitest';
import { forgetIdentity, loadIdentity, loadRemembered, remember, saveIdentity } from '../src/lib/storage.js';

describe('visitor storage', () => {
  beforeEach(() => localStorage.clear());

  it('keeps the visitor id and token per access point', () => {
    const a = loadIdentity('demo');
    expect(a.userid).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(a.token).toBe('');
    saveIdentity('demo', { userid: a.userid, token: 'secret' });
    expect(loadIdentity('demo')).toEqual({ userid: a.userid, token: 'secret' });
    expect(loadIdentity('other').userid).not.toBe(a.userid);
    forgetIdentity('demo');
    expect(loadIdentity('demo').userid).not.toBe(a.userid);
  });

  it('a corrupt or malformed stored identity starts over', () => {
    localStorage.setItem('kefu:visitor:demo', '{bad json');
    expect(loadIdentity('demo').userid).toHaveLength(32);
    localStorage.setItem('kefu:visitor:demo', JSON.stringify({ userid: 'short', token: 't' }));
    expect(loadIdentity('demo').userid).toHaveLength(32);
  });

  it('remembers the pre-chat form for the configured time', () => {
    remember('demo', { name: '张三' }, 60, 1_000);
    expect(loadRemembered('demo', 60, 50_000)).toEqual({ name: '张三' });
    expect(loadRemembered('demo', 60, 62_000)).toBeNull();
    expect(loadRemembered('demo', 60, 50_000)).toBeNull();
    remember('demo', { name: 'x' }, 0, 1_000);
    expect(loadRemembered('demo', 60, 1_000)).toBeNull();
  });
});
