import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Composer } from '../dialogue/components/Composer';
import { sendableKinds } from './capabilities';

vi.mock('react-i18next', () => ({
  useTranslation: () => ({ t: (k: string, o?: Record<string, string>) => (o?.kind ? `${k}:${o.kind}` : k) }),
}));

afterEach(cleanup);

function show(userid: string) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Composer disabled={false} onSend={() => {}} onTyping={() => {}} kinds={sendableKinds(userid)} />
    </QueryClientProvider>,
  );
  const btn = (kind: string) => screen.getByTestId(`upload-${kind}-btn`) as HTMLButtonElement;
  return { image: btn('image'), file: btn('file'), voice: btn('voice') };
}

describe('the composer reads the channel capability descriptor', () => {
  it('a text-only platform (Douyin): image, file and voice are disabled and marked refused', () => {
    const b = show('douyin:abcdefghijklmnopqrstuvwxyz012345');
    for (const el of [b.image, b.file, b.voice]) {
      expect(el.disabled).toBe(true);
      expect(el.getAttribute('data-refused')).toBe('true');
    }
    expect((screen.getByTestId('composer-input') as HTMLTextAreaElement).disabled).toBe(false);
  });

  it('mini-programs send images but no files or voice; WeChat KF and web chats send everything', () => {
    const weapp = show('weapp:abcdefghijklmnopqrstuvwxyz012345');
    expect(weapp.image.disabled).toBe(false);
    expect(weapp.file.disabled).toBe(true);
    expect(weapp.voice.disabled).toBe(true);
    cleanup();
    const kf = show('wechat:abcdefghijklmnopqrstuvwxyz012345');
    expect([kf.image, kf.file, kf.voice].map((e) => e.disabled)).toEqual([false, false, false]);
    cleanup();
    const web = show('Abcdefghijklmnopqrstuvwxyz012345');
    expect([web.image, web.file, web.voice].map((e) => e.disabled)).toEqual([false, false, false]);
  });
});
