import {
  DEFAULT_NOTICE_TITLE,
  DEFAULT_SOUNDS,
  DESKTOP_NOTIFICATION_CLOSE_MS,
  SOUND_THROTTLE_MS,
} from '@kefu/protocol';
import { throttle } from './model/messages';

/** Per-user switches of spec section 6 (GET /api/agent user fields). */
export interface SoundPrefs {
  warningtone?: number | boolean | string | null;
  messagetone?: number | boolean | string | null;
}

const on = (v: SoundPrefs[keyof SoundPrefs]): boolean =>
  v === undefined || v === null || (v !== 0 && v !== false && v !== '0' && v !== 'false');

const gate = throttle(SOUND_THROTTLE_MS);

/** new.mp3 for a new chat (warningtone), message.mp3 for a message (messagetone); at most one per 1.3 s. */
export function playSound(kind: 'new' | 'message', prefs: SoundPrefs): void {
  if (!on(kind === 'new' ? prefs.warningtone : prefs.messagetone)) return;
  gate(() => {
    try {
      const audio = new Audio(`/sounds/${kind === 'new' ? DEFAULT_SOUNDS.newChat : DEFAULT_SOUNDS.message}`);
      void audio.play().catch(() => undefined);
    } catch {
      // No audio support (tests, locked-down browsers): silent.
    }
  });
}

/** Asks once, on a user gesture (browsers ignore the request otherwise). */
export function askNotificationPermission(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}

/** A desktop notification that closes by itself after 10 s. */
export function desktopNotify(body: string, title: string = DEFAULT_NOTICE_TITLE): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    const n = new Notification(title, { body, tag: 'kefu-message' });
    n.onclick = () => {
      window.focus();
      n.close();
    };
    setTimeout(() => n.close(), DESKTOP_NOTIFICATION_CLOSE_MS);
  } catch {
    // Some browsers only allow notifications from a service worker.
  }
}

let flashTimer: ReturnType<typeof setInterval> | undefined;
let savedTitle = '';

/** Flashes the document title while the page is hidden; stops when the agent comes back. */
export function flashTitle(text: string): void {
  if (typeof document === 'undefined' || !document.hidden || flashTimer) return;
  savedTitle = document.title;
  let odd = false;
  flashTimer = setInterval(() => {
    odd = !odd;
    document.title = odd ? text : savedTitle;
  }, 1_000);
  const stop = () => {
    if (document.hidden) return;
    clearInterval(flashTimer);
    flashTimer = undefined;
    document.title = savedTitle;
    document.removeEventListener('visibilitychange', stop);
  };
  document.addEventListener('visibilitychange', stop);
}
