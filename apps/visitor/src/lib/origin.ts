import { isEmbedMessage, type EmbedMessage } from '@kefu/protocol';

/** The origin ("scheme://host[:port]") of a URL, or '' when it cannot be parsed. */
export function originOf(url: string, base?: string): string {
  try {
    const u = new URL(url, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : '';
  } catch {
    return '';
  }
}

/**
 * Accepts a postMessage only from the expected window and origin, with a well-formed embed payload.
 * Only an http(s) origin can match: '', '*' and the opaque 'null' never do.
 */
export function acceptEmbed(
  ev: { origin: string; source: unknown; data: unknown },
  expectedOrigin: string,
  expectedSource: unknown,
): EmbedMessage | null {
  if (!/^https?:\/\/[^/]+$/.test(expectedOrigin) || ev.origin !== expectedOrigin) return null;
  if (expectedSource !== undefined && ev.source !== expectedSource) return null;
  return isEmbedMessage(ev.data) ? ev.data : null;
}
