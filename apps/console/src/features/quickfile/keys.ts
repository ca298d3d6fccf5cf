import type { ShortcutsDto } from '@kefu/protocol';

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** An input method is composing: its Enter picks a candidate, never sends. */
  isComposing: boolean;
}

/** Whether the key press sends the draft ('enter': Enter alone; 'ctrlEnter': Ctrl/⌘+Enter). */
export const isSendKey = (s: ShortcutsDto, e: KeyPress): boolean =>
  e.key === 'Enter' &&
  !e.isComposing &&
  (s.send === 'enter' ? !e.shiftKey && !e.ctrlKey && !e.metaKey : e.ctrlKey || e.metaKey);

/** Whether the key press opens the canned replies (⌘ counts as Ctrl on a Mac). */
export function isQuickKey(s: ShortcutsDto, e: KeyPress): boolean {
  const k = e.key.toLowerCase();
  if (s.quick === 'ctrl+/') return (e.ctrlKey || e.metaKey) && k === '/';
  if (s.quick === 'ctrl+k') return (e.ctrlKey || e.metaKey) && k === 'k';
  if (s.quick === 'alt+q') return e.altKey && k === 'q';
  return false;
}
