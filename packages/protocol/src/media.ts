/**
 * Media served under /res/{page}.html?id=: which content types each page shows inline. The server types an
 * upload by its bytes (never by the name or type the client sent); a file whose type is not on the page's
 * list is served as `application/octet-stream` with `Content-Disposition: attachment`. Text types (HTML,
 * SVG, JavaScript, XML) are on no list, so they are never rendered by a browser from kefu's origin.
 */
export const MEDIA_PAGES = ['image', 'file', 'video', 'voice'] as const;
export type MediaPage = (typeof MEDIA_PAGES)[number];

export const MEDIA_INLINE_TYPES: Readonly<Record<MediaPage, readonly string[]>> = {
  image: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
  voice: ['audio/mpeg', 'audio/ogg'],
  video: ['video/mp4', 'video/webm'],
  file: [],
};

/** The type given to anything that is not a recognised media type. */
export const OPAQUE_TYPE = 'application/octet-stream';

/** What every media response carries: nothing it contains may run or load anything. */
export const MEDIA_CSP = "default-src 'none'; sandbox";

/**
 * Upload quotas (defaults; the server's configuration may change them). Visitor uploads are counted per
 * visitor and per client IP over a sliding window; every upload counts against its tenant's storage cap.
 * Visitor uploads never attached to a sent message are removed after ORPHAN_UPLOAD_TTL_MS.
 */
export const UPLOAD_QUOTA_DEFAULTS = {
  windowMs: 60 * 60_000,
  visitorFiles: 20,
  visitorBytes: 50 * 1024 * 1024,
  ipFiles: 60,
  ipBytes: 150 * 1024 * 1024,
  tenantBytes: 10 * 1024 * 1024 * 1024,
} as const;
export const ORPHAN_UPLOAD_TTL_MS = 24 * 60 * 60_000;
