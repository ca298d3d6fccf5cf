import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { initI18n } from '../lib/i18n';
import { App } from './App';

beforeAll(async () => {
  // No server: i18n falls back to the bundled texts.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('offline'))),
  );
  await initI18n();
  vi.unstubAllGlobals();
});
afterEach(cleanup);

describe('App routing without a token', () => {
  it('sends a protected path to /login, remembering it', { timeout: 20_000 }, async () => {
    localStorage.clear();
    window.history.replaceState(null, '', '/setup/role');
    render(<App />);
    expect(await screen.findByTestId('login-submit', {}, { timeout: 12_000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
    expect(new URLSearchParams(window.location.search).get('redirect')).toBe('/setup/role');
  });

  it('redirects /visitor to /visitor/text', { timeout: 20_000 }, async () => {
    localStorage.clear();
    window.history.replaceState(null, '', '/visitor');
    render(<App />);
    expect(await screen.findByTestId('visitor-open', {}, { timeout: 12_000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/visitor/text');
  });
});
