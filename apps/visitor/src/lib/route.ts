export type Page = 'text' | 'pc' | 'mobile' | 'mini' | 'navigation';
const PAGES: readonly Page[] = ['text', 'pc', 'mobile', 'mini', 'navigation'];

export interface Route {
  page: Page;
  appid: string;
  skill: string;
  /** Host page origin when embedded by the loader (postMessage target). */
  embedOrigin: string;
  traceid: string;
  /** The agent whose invite the visitor accepted (routing asks for them). */
  agent: string;
}

/** `/visitor/<page>?appid=&skill=` (also `/im/index.html` for local previews); `/visitor` → text. */
export function parseRoute(pathname: string, search: string): Route {
  const seg = pathname.replace(/\/+$/, '').split('/');
  const i = seg.indexOf('visitor');
  const name = i >= 0 ? (seg[i + 1] ?? 'text') : 'text';
  const q = new URLSearchParams(search);
  return {
    page: (PAGES as readonly string[]).includes(name) ? (name as Page) : 'text',
    appid: q.get('appid') ?? '',
    skill: q.get('skill') ?? '',
    embedOrigin: q.get('origin') ?? '',
    traceid: q.get('traceid') ?? '',
    agent: q.get('agent') ?? '',
  };
}

/** Link to another visitor page keeping appid / l / skill. */
export function pageUrl(page: Page, search: string, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams(search);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return `/visitor/${page}?${q}`;
}
