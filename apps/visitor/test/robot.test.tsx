import { afterEach, describe, expect, it, vi } from 'vitest';
import { h, render } from 'preact';
import type { MessageDto } from '@kefu/protocol';
import { RichText, RobotBar, RobotContent, safeImage } from '../src/ui/Robot.js';
import { messageDto } from './fixtures.js';

const root = () => document.body.appendChild(document.createElement('div'));
afterEach(() => {
  document.body.innerHTML = '';
});

const robotLine = (patch: Partial<MessageDto>): MessageDto => ({
  ...messageDto(1),
  type: 'robot',
  calltype: 'out',
  ...patch,
});

describe('robot lines in the widget', () => {
  it('draws an answer’s rich text as elements, never as HTML', () => {
    const el = root();
    render(
      h(RichText, { text: '**退货**请看[说明](https://example.com/r)\n<img src=x onerror=alert(1)>' }),
      el,
    );
    expect(el.querySelector('strong')?.textContent).toBe('退货');
    const a = el.querySelector('a')!;
    expect(a.getAttribute('href')).toBe('https://example.com/r');
    expect(a.getAttribute('rel')).toContain('noopener');
    expect(el.querySelector('img')).toBeNull();
    expect(el.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('suggestions are buttons that ask their question; disabled once the robot is gone', () => {
    const el = root();
    const asked = vi.fn();
    const m = robotLine({
      message: '您是不是想问：\n1. 退款多久到账？',
      robot: {
        action: 'suggest',
        itemid: null,
        lead: '您是不是想问：',
        score: 0.3,
        cites: [],
        suggestions: [{ id: 'i1', question: '退款多久到账？' }],
      },
    });
    render(h(RobotContent, { m, onAsk: asked }), el);
    const b = el.querySelector<HTMLButtonElement>('[data-testid="robot-suggestion"]')!;
    expect(b.textContent).toBe('退款多久到账？');
    b.click();
    expect(asked).toHaveBeenCalledWith('退款多久到账？');
    render(h(RobotContent, { m, onAsk: undefined }), el);
    expect(el.querySelector<HTMLButtonElement>('[data-testid="robot-suggestion"]')!.disabled).toBe(true);
  });

  it('a generated answer shows the items it cites; the bar’s 转人工 calls the handoff once at a time', async () => {
    const el = root();
    const m = robotLine({
      message: '您好！在订单详情申请。',
      robot: {
        action: 'answer',
        itemid: null,
        lead: '',
        score: 0.8,
        suggestions: [],
        cites: [{ id: 'i1', question: '如何开发票？' }],
      },
    });
    render(h(RobotContent, { m }), el);
    expect(el.querySelector('[data-testid="robot-cites"]')?.textContent).toContain('如何开发票？');
    const bar = root();
    let done: () => void = () => undefined;
    const onHuman = vi.fn(() => new Promise<void>((r) => (done = r)));
    render(h(RobotBar, { robot: { id: 'r', name: '小智', avatar: '', handoffButton: true }, onHuman }), bar);
    const btn = bar.querySelector<HTMLButtonElement>('[data-testid="robot-human"]')!;
    btn.click();
    await Promise.resolve();
    expect(onHuman).toHaveBeenCalledTimes(1);
    done();
  });

  it('the bar shows the robot’s avatar when it is an http(s) or same-server image, nothing otherwise', () => {
    const el = root();
    const robot = { id: 'r1', name: '小智', avatar: 'https://cdn.example.com/bot.png', handoffButton: false };
    render(h(RobotBar, { robot, onHuman: () => Promise.resolve() }), el);
    expect(el.querySelector('[data-testid="robot-avatar"]')?.getAttribute('src')).toBe(
      'https://cdn.example.com/bot.png',
    );
    render(
      h(RobotBar, { robot: { ...robot, avatar: 'javascript:alert(1)' }, onHuman: () => Promise.resolve() }),
      el,
    );
    expect(el.querySelector('[data-testid="robot-avatar"]')).toBeNull();
    expect(safeImage('/res/image?id=1')).toBe('/res/image?id=1');
    expect(safeImage('//evil.example/x.png')).toBe('');
    expect(safeImage('')).toBe('');
  });
});
