import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { OAUTH2_PRESETS } from '@kefu/protocol';
import { ProvidersCard } from './ProvidersCard';

vi.mock('react-i18next', () => ({
  useTranslation: () => ({ t: (k: string) => k, i18n: { language: 'zh' } }),
}));
const saved = vi.hoisted(() => [] as Array<Record<string, unknown>>);
vi.mock('../api', () => ({
  securityApi: {
    providers: () => Promise.resolve([]),
    saveProvider: (p: Record<string, unknown>) => (saved.push(p), Promise.resolve(p)),
    deleteProvider: () => Promise.resolve(null),
  },
}));

afterEach(cleanup);

describe('third-party login providers', () => {
  it('an OAuth2 preset fills the endpoints, fields and token style that are saved', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ProvidersCard />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByTestId('idp-new'));
    fireEvent.click(await screen.findByText('idp.kind.oauth2'));
    const preset =
      (await screen.findByTestId('idp-preset')).querySelector('.ant-select-selector') ??
      screen.getByTestId('idp-preset');
    fireEvent.mouseDown(preset);
    fireEvent.click(await screen.findByText('idp.preset.dingtalk'));
    await waitFor(() =>
      expect((screen.getByTestId('idp-tokenurl') as HTMLInputElement).value).toBe(
        OAUTH2_PRESETS.dingtalk.tokenurl,
      ),
    );
    fireEvent.change(screen.getByTestId('idp-name'), { target: { value: 'DingTalk' } });
    fireEvent.change(screen.getByTestId('idp-clientid'), { target: { value: 'ding-app' } });
    fireEvent.click(screen.getByTestId('idp-form-submit'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({
      name: 'DingTalk',
      kind: 'oauth2',
      clientid: 'ding-app',
      ...OAUTH2_PRESETS.dingtalk,
    });
  }, 30_000);
});
