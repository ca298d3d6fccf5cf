/** Business constants and limits of spec section 9. */
export const REQUEST_TIMEOUT_MS = 120_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const ERROR_TOAST_THROTTLE_MS = 2_000;
export const LOGIN_REDIRECT_DELAY_MS = 800;

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZES = [10, 15, 20, 30, 40, 50, 100] as const;
export const PAGE_SIZES_TENS = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100] as const;
export const PAGER_COUNT = 7;
export const PAGER_LAYOUT = 'total, sizes, prev, pager, next';
export const PAGE_SIZE_MAX = 100;

export const UPLOAD_ENDPOINT = '/api/upload';

export const THEME_COLOR_DEFAULT = '#2C68FF';
export const THEME_COLOR_FALLBACK = '#2c6ee5';

export const IMAGE_VIEWER = {
  zoomStep: 0.2,
  wheelStep: 0.015,
  minScale: 0.2,
  rotateStep: 90,
  zIndex: 9999,
} as const;
export const PREVIEW_VIEWER = { zoomStep: 0.15, wheelStep: 0.05, keyRepeatDebounceMs: 300 } as const;

export const DEFAULT_LANGUAGE = 'zh';

export const AGENT_PING_INTERVAL_MS = 30_000;
export const HEARTBEAT_CHECK_INTERVAL_MS = 15_000;
/**
 * An agent keeps its chosen state (ready, busy) across a reload, a reconnect or another tab closing:
 * only after this long without any socket of that agent (on any node) does it become notready.
 */
export const AGENT_PRESENCE_GRACE_MS = 60_000;

/** Round-trip time thresholds (ms) for network quality 1..4. */
export const NETWORK_QUALITY_RTT = [120, 2_000, 5_000] as const;
export function networkQuality(rttMs: number): 1 | 2 | 3 | 4 {
  if (rttMs <= NETWORK_QUALITY_RTT[0]) return 1;
  if (rttMs <= NETWORK_QUALITY_RTT[1]) return 2;
  if (rttMs <= NETWORK_QUALITY_RTT[2]) return 3;
  return 4;
}
export const NETWORK_DELAY_LOG_MS = 5_000;

export const RECONNECT_AFTER_DISCONNECT_MS = 3_000;
export const SOCKET_RECONNECTION = {
  reconnectionDelay: 1_000,
  reconnectionDelayMax: 5_000,
  randomizationFactor: 0.5,
  timeout: 20_000,
} as const;
export const SOCKET_BACKOFF = { min: 100, max: 10_000, factor: 2 } as const;

export const SOUND_THROTTLE_MS = 1_300;
export const TRANSFER_PROMPT_DEFAULT_MS = 5_000;
export const DESKTOP_NOTIFICATION_CLOSE_MS = 10_000;
export const READ_REPORT_DEBOUNCE_MS = 500;

export const TALK_SORTS = ['servicetime', 'lastmessage'] as const;
export type TalkSort = (typeof TALK_SORTS)[number];
export const DEFAULT_TALK_SORT: TalkSort = 'servicetime';

export const DATE_SHORTCUTS = [
  { key: 'today', days: 0 },
  { key: 'yesterday', days: 1 },
  { key: 'last3days', days: 3 },
  { key: 'lastWeek', days: 7 },
  { key: 'lastMonth', days: 30 },
  { key: 'last3Months', days: 90 },
] as const;

export const UUID_LENGTH = 32;
export const DEFAULT_SOUNDS = { newChat: 'new.mp3', message: 'message.mp3' } as const;
export const DEFAULT_NOTICE_TITLE = 'You have a new unread message';
export const TRANSFER_BUTTONS = { agree: 'Agree', refuse: 'Refuse' } as const;

export const AGENT_STATES = ['ready', 'notready', 'busy', 'leave', 'notbusy'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

/** Keys kept in the browser's local storage (spec section 3). */
export const STORAGE_KEYS = {
  token: 'token',
  userInfo: 'userInfo',
  authorities: 'authorities',
  authmenu: 'authmenu',
  talksort: 'talksort',
  chatMonitorActive: 'chatMonitorActive',
  language: 'language',
  themeColor: 'themeColor',
} as const;

export const CHANNELS = ['webim', 'bcp', 'douyin', 'weixin', 'weapp', 'wechat'] as const;
export type Channel = (typeof CHANNELS)[number];

/** File-size display of spec section 5. */
export function formatFileSize(bytes: number): string {
  const KB = 1024;
  const MB = KB * 1024;
  const GB = MB * 1024;
  const TB = GB * 1024;
  if (bytes < MB) return `${(bytes / KB).toFixed(2)}KB`;
  if (bytes < GB) return `${(bytes / MB).toFixed(2)}MB`;
  if (bytes < TB) return `${(bytes / GB).toFixed(2)}GB`;
  return 'file exceeds 1TB';
}
