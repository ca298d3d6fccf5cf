import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ChatEntry } from '../model/chatList';
import { VisitorPanel } from './VisitorPanel';

vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (k: string) => k }) }));

const data = vi.hoisted(() => ({ url: '' }));
vi.mock('../api', () => ({
  talkApi: { data: async () => ({ visitor: { url: data.url }, agentService: {} }) },
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
  it('links an http(s) source page', () => {
    const cell = show(chat('https://shop.example.com/p?id=1'));
    expect(cell.querySelector('a')?.getAttribute('href')).toBe('https://shop.example.com/p?id=1');
  });

  it('shows any other scheme as text, never as a link', async () => {
    for (const url of [
      'javascript:alert(document.cookie)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>x</script>',
    ]) {
      cleanup();
      expect(show(chat(url)).querySelector('a'), url).toBeNull();
      expect(screen.getByTestId('visitor-source').textContent).toBe(url);
    }
    // The page URL the visitor record holds (used when the chat carries none) is treated the same way.
    cleanup();
    data.url = 'javascript:alert(2)';
    const cell = show(chat(''));
    await waitFor(() => expect(cell.textContent).toBe('javascript:alert(2)'));
    expect(cell.querySelector('a')).toBeNull();
  });
});
