import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { EMPTY_CONTACT_TEXTS, type ContactDto } from '@kefu/protocol';
import type { ChatData } from '../api';
import { ConversationRecord } from './ConversationRecord';

vi.mock('react-i18next', () => ({
  useTranslation: () => ({ t: (k: string) => k, i18n: { language: 'zh', exists: () => false } }),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ok = (data: unknown) => new Response(JSON.stringify({ success: true, data, msg: 'ok', code: 200 }));

const contact: ContactDto = {
  id: 'c1',
  name: '王小明',
  ...EMPTY_CONTACT_TEXTS,
  phone: '13800138000',
  tags: [],
  owner: 'u1',
  ownername: 'admin',
  organ: null,
  creater: 'u1',
  createtime: 0,
  updatetime: 0,
  identities: [{ channel: 'webim', userid: 'v1', createtime: 0 }],
};

/** The calls the panel makes, answered as the server would; each request is recorded. */
function server() {
  const calls: Array<{ method: string; url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url: String(url), body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (url.startsWith('/api/tags'))
        return ok([{ id: 't1', name: '退款', color: '#F5222D', tagtype: 'summary', sortindex: 1 }]);
      if (url.startsWith('/api/sessionType'))
        return ok([{ id: 'p1', name: '物流', parentid: null, sortindex: 1, createtime: 0 }]);
      if (url.startsWith('/api/contacts') && method === 'PUT') return ok(contact);
      return ok(null);
    }),
  );
  return calls;
}

const data = (over: Partial<ChatData>): ChatData =>
  ({
    tags: [],
    summary: { topicid: null, topicname: '', memo: '', updatetime: null },
    contact: null,
    ...over,
  }) as ChatData;

const show = (d: ChatData) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <ConversationRecord chatId="au1" agentserviceid="s1" data={d} />
      </AntApp>
    </QueryClientProvider>,
  );

describe('ConversationRecord (the /dialogue panel sections)', () => {
  it('creates the contact from the visitor with PUT /api/contacts', async () => {
    const calls = server();
    show(data({}));
    fireEvent.click(screen.getByTestId('record-create-contact'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/api/contacts',
      body: { agentserviceid: 's1' },
    });
  });

  it('shows the linked contact, and toggles a conversation tag on and off', async () => {
    const calls = server();
    const view = show(data({ contact }));
    expect(screen.getByTestId('record-contact').textContent).toContain('13800138000');
    const tag = await screen.findByTestId('record-tag-退款');
    expect(tag.dataset.checked).toBe('false');
    fireEvent.click(tag);
    await waitFor(() => expect(calls.some((c) => c.url === '/api/talk/tagrelation')).toBe(true));
    expect(calls.find((c) => c.url === '/api/talk/tagrelation')?.body).toEqual({
      agentserviceid: 's1',
      tagid: 't1',
      checked: true,
    });
    view.rerender(
      <QueryClientProvider client={new QueryClient()}>
        <AntApp>
          <ConversationRecord chatId="au1" agentserviceid="s1" data={data({ contact, tags: ['t1'] })} />
        </AntApp>
      </QueryClientProvider>,
    );
    const on = await screen.findByTestId('record-tag-退款');
    expect(on.dataset.checked).toBe('true');
  });

  it('saves the summary memo through /api/talk/summary', async () => {
    const calls = server();
    show(data({ summary: { topicid: 'p1', topicname: '物流', memo: '旧', updatetime: 1 } }));
    fireEvent.change(screen.getByTestId('record-memo'), { target: { value: '已处理' } });
    fireEvent.click(screen.getByTestId('record-summary-save'));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/talk/summary')).toBe(true));
    expect(calls.find((c) => c.url === '/api/talk/summary')?.body).toEqual({
      agentserviceid: 's1',
      topicid: 'p1',
      memo: '已处理',
    });
  });
});
