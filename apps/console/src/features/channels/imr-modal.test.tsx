import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ImrRuleDto } from '@kefu/protocol';
import { ImrModal, type ImrOwner } from './components/ImrModal';

vi.mock('react-i18next', () => ({
  useTranslation: () => ({ t: (k: string) => k, i18n: { language: 'zh' } }),
}));

const rule: ImrRuleDto = {
  id: 'r1',
  accountid: 'kf1',
  kind: 'subscribe',
  keyword: '',
  contains: false,
  reply: '欢迎光临',
  createtime: 0,
};
const calls = vi.hoisted(() => ({ kf: [] as string[], app: [] as string[], sns: [] as string[] }));
vi.mock('./api', () => ({
  kfApi: { rules: (accountid: string) => (calls.kf.push(accountid), Promise.resolve([rule])) },
  appApi: () => ({
    rules: (appid: string) => (calls.app.push(appid), Promise.resolve([])),
    saveRule: () => Promise.resolve(rule),
    removeRule: () => Promise.resolve(null),
  }),
  snsApi: { list: (channel: string) => (calls.sns.push(channel), Promise.resolve([])) },
}));

afterEach(cleanup);

const show = (owner: ImrOwner) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ImrModal owner={owner} onClose={() => {}} />
    </QueryClientProvider>,
  );

describe('the auto-replies modal', () => {
  it("of a WeChat KF account: lists that account's rules by accountid, its subscribe rule labelled as the welcome", async () => {
    show({ channel: 'wechat', accountid: 'kf1' });
    await screen.findByText('欢迎光临');
    expect(calls.kf).toEqual(['kf1']);
    expect(calls.app).toEqual([]);
    expect(calls.sns).toEqual([]);
    expect(screen.getByText('channel.imr.kind.welcome')).toBeTruthy();
    expect(screen.getByText('channel.imrKfHint')).toBeTruthy();
  });

  it('of an official account: lists by app id and finds its account among the channel accounts', async () => {
    show({ channel: 'weixin', appid: 'app1' });
    await waitFor(() => expect(calls.app).toEqual(['app1']));
    await waitFor(() => expect(calls.sns).toEqual(['weixin']));
    expect(screen.getByText('channel.imrHint')).toBeTruthy();
  });
});
