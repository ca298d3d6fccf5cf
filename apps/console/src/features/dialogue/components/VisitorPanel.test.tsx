import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ChatEntry } from '../model/chatList';
import { VisitorPanel } from './VisitorPanel';

vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (k: string) => k }) }));

const data = vi.hoisted(() => ({ url: '', page: '', trail: [] as unknown[] }));
vi.mock('../api', () => ({
  talkApi: {
    data: async () => ({ visitor: { url: data.url }, agentService: { url: data.page }, trail: data.trail }),
  },
}));

afterEach(cleanup);

const chat = (source: string) =>
  ({
    id: 'au1',
    username: 'Guest',
    agentservice: {
      source,
      channel: 'webim',
      browser: '',
      country: '',
      province: '',
      city: '',
      username: '',
      mobile: '',
    },
  }) as unknown as ChatEntry;

function show(entry: ChatEntry) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <VisitorPanel chat={entry} />
    </QueryClientProvider>,
  );
  return screen.getByTestId('visitor-source');
}

describe('VisitorPanel: visitor-supplied URLs', () => {
  it('links the http(s) host page, never the widget iframe page of `source`', async () => {
    data.page = 'https://shop.example.com/p?id=1';
    const cell = show(chat('http://kefu.example.com/visitor/mini?appid=x'));
    await waitFor(() =>
      expect(cell.querySelector('a')?.getAttribute('href')).toBe('https://shop.example.com/p?id=1'),
    );
    expect(cell.textContent).not.toContain('/visitor/mini');
  });

  it('shows the page trail, links only for http(s)', async () => {
    data.trail = [
      { id: '2', url: 'javascript:alert(1)', title: 'Bad', createtime: 2 },
      { id: '1', url: 'https://shop.example.com/', title: 'Home', createtime: 1 },
    ];
    show(chat(''));
    await waitFor(() => expect(screen.getAllByTestId('visitor-trail-page')).toHaveLength(2));
    const [bad, home] = screen.getAllByTestId('visitor-trail-page');
    expect(bad?.querySelector('a')).toBeNull();
    expect(home?.querySelector('a')?.getAttribute('href')).toBe('https://shop.example.com/');
    data.trail = [];
  });

  it('shows any other scheme as text, never as a link', async () => {
    for (const url of [
      'javascript:alert(document.cookie)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>x</script>',
    ]) {
      cleanup();
      data.page = url;
      const cell = show(chat(''));
      await waitFor(() => expect(cell.textContent).toBe(url));
      expect(cell.querySelector('a'), url).toBeNull();
    }
    data.page = '';
    // The page URL the visitor record holds (used when the chat carries none) is treated the same way.
    cleanup();
    data.url = 'javascript:alert(2)';
    const cell = show(chat(''));
    await waitFor(() => expect(cell.textContent).toBe('javascript:alert(2)'));
    expect(cell.querySelector('a')).toBeNull();
  });
});
