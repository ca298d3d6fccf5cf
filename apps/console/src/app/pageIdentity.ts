import { fetchTokenInfo } from '../features/auth/api';

export const DEFAULT_TITLE = '在线客服';

/** Page title and favicon from GET /tokens/info (spec section 1). */
export async function applyPageIdentity(): Promise<void> {
  let title = DEFAULT_TITLE;
  let favlogo: string | undefined;
  try {
    const info = await fetchTokenInfo();
    title = info.title || DEFAULT_TITLE;
    favlogo = info.favlogo || undefined;
  } catch {
    // Keep the defaults: the console works without branding.
  }
  document.title = title;
  if (favlogo) {
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    link.href = favlogo;
  }
}
