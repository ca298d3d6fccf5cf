import { describe, expect, it } from 'vitest';
import { isQuickKey, isSendKey, type KeyPress } from './keys';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  isComposing: false,
  ...mods,
});

describe('composer shortcuts', () => {
  it('Enter sends by default; Shift+Enter and an IME Enter do not', () => {
    const s = { send: 'enter', quick: 'ctrl+/' } as const;
    expect(isSendKey(s, press('Enter'))).toBe(true);
    expect(isSendKey(s, press('Enter', { shiftKey: true }))).toBe(false);
    expect(isSendKey(s, press('Enter', { isComposing: true }))).toBe(false);
    expect(isSendKey(s, press('Enter', { ctrlKey: true }))).toBe(false);
  });

  it('ctrlEnter: Ctrl or ⌘ with Enter sends, Enter alone breaks the line', () => {
    const s = { send: 'ctrlEnter', quick: 'none' } as const;
    expect(isSendKey(s, press('Enter'))).toBe(false);
    expect(isSendKey(s, press('Enter', { ctrlKey: true }))).toBe(true);
    expect(isSendKey(s, press('Enter', { metaKey: true }))).toBe(true);
  });

  it('the quick-reply key as chosen, none by "none"', () => {
    expect(isQuickKey({ send: 'enter', quick: 'ctrl+/' }, press('/', { ctrlKey: true }))).toBe(true);
    expect(isQuickKey({ send: 'enter', quick: 'ctrl+/' }, press('/'))).toBe(false);
    expect(isQuickKey({ send: 'enter', quick: 'ctrl+k' }, press('K', { metaKey: true }))).toBe(true);
    expect(isQuickKey({ send: 'enter', quick: 'alt+q' }, press('q', { altKey: true }))).toBe(true);
    expect(isQuickKey({ send: 'enter', quick: 'alt+q' }, press('q', { ctrlKey: true }))).toBe(false);
    expect(isQuickKey({ send: 'enter', quick: 'none' }, press('/', { ctrlKey: true }))).toBe(false);
  });
});
