import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { MEDIA_CSP } from '@kefu/protocol';
import type { SecurityConfig } from './security-config.js';

/**
 * The Content-Security-Policy directives, as helmet's defaults (base-uri, font-src, form-action,
 * object-src, script-src-attr, upgrade-insecure-requests) merged with ours, in helmet's order.
 * `frameAncestors` and `mediaOrigin` vary: the console may be framed only by what KEFU_FRAME_ANCESTORS
 * allows ('self' by default), the visitor pages by any company website; media may come from a separate
 * origin (KEFU_MEDIA_ORIGIN).
 */
export function cspDirectives(
  frameAncestors: readonly string[],
  mediaOrigin?: string,
  imgExtra: readonly string[] = [],
): ReadonlyArray<readonly [string, readonly string[]]> {
  const media = mediaOrigin ? [mediaOrigin] : [];
  return [
    ['default-src', ["'self'"]],
    ['base-uri', ["'self'"]],
    ['font-src', ["'self'", 'https:', 'data:']],
    ['form-action', ["'self'"]],
    ['frame-ancestors', frameAncestors],
    ['img-src', ["'self'", 'data:', 'blob:', ...media, ...imgExtra]],
    ['object-src', ["'none'"]],
    ['script-src', ["'self'"]],
    ['script-src-attr', ["'none'"]],
    // antd's css-in-js writes <style> tags at run time.
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['upgrade-insecure-requests', []],
    ['media-src', ["'self'", 'blob:', ...media]],
    ['connect-src', ["'self'", 'ws:', 'wss:']],
  ];
}

/**
 * The security headers of a response: exactly what helmet 8 sets with our configuration (CSP above, no
 * Cross-Origin-Embedder-Policy, no X-Frame-Options), computed once at start-up instead of helmet
 * rebuilding its middleware on every request (test: security-headers.test.ts compares both).
 */
export function securityHeaders(
  frameAncestors: readonly string[],
  mediaOrigin?: string,
  imgExtra: readonly string[] = [],
): ReadonlyArray<readonly [string, string]> {
  const csp = cspDirectives(frameAncestors, mediaOrigin, imgExtra)
    .map(([name, values]) => (values.length ? `${name} ${values.join(' ')}` : name))
    .join(';');
  return [
    ['Content-Security-Policy', csp],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Origin-Agent-Cluster', '?1'],
    ['Referrer-Policy', 'no-referrer'],
    ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-DNS-Prefetch-Control', 'off'],
    ['X-Download-Options', 'noopen'],
    ['X-Permitted-Cross-Domain-Policies', 'none'],
    ['X-XSS-Protection', '0'],
  ];
}

type HeaderSet = { names: string[]; values: string[] };

function headerSet(headers: ReadonlyArray<readonly [string, string]>): HeaderSet {
  return { names: headers.map(([n]) => n), values: headers.map(([, v]) => v) };
}

const replaced = (
  headers: ReadonlyArray<readonly [string, string]>,
  patch: Record<string, string>,
): ReadonlyArray<readonly [string, string]> => headers.map(([n, v]) => [n, patch[n] ?? v] as const);

/** Which header set a path gets: the visitor pages and widget files, media, or everything else. */
export function headerKind(url: string): 'visitor' | 'media' | 'console' {
  if (url.startsWith('/res/')) return 'media';
  if (
    url.startsWith('/im/') ||
    url === '/visitor' ||
    url.startsWith('/visitor/') ||
    url.startsWith('/visitor?')
  )
    return 'visitor';
  return 'console';
}

/** Image sources the visitor pages allow beyond the console's. */
export const VISITOR_IMG: readonly string[] = ['https:'];

/**
 * Sets the security headers on the raw response in an onRequest hook, as helmet did (so a later
 * reply.header(), e.g. /im/loader.js's cross-origin-resource-policy, still overrides one). Media
 * responses get MEDIA_CSP (nothing in them may run or load anything) and, when media live on their own
 * origin, a Cross-Origin-Resource-Policy that lets the console's origin embed them.
 */
export function installSecurityHeaders(
  app: FastifyInstance,
  sec: Pick<SecurityConfig, 'frameAncestors' | 'mediaOrigin'>,
): void {
  // The widget draws the logo and robot avatar the administrator gave as https URLs (a CDN, the company
  // site); images cannot run script, and no-referrer keeps the visitor's page out of those requests.
  const visitor = securityHeaders(['*'], sec.mediaOrigin, VISITOR_IMG);
  const sets = {
    visitor: headerSet(visitor),
    console: headerSet(securityHeaders(sec.frameAncestors, sec.mediaOrigin)),
    media: headerSet(
      replaced(visitor, {
        'Content-Security-Policy': MEDIA_CSP,
        ...(sec.mediaOrigin ? { 'Cross-Origin-Resource-Policy': 'cross-origin' } : {}),
      }),
    ),
  };
  app.addHook(
    'onRequest',
    function securityHeaders(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
      const res = reply.raw;
      const { names, values } = sets[headerKind(req.url)];
      for (let i = 0; i < names.length; i++) res.setHeader(names[i]!, values[i]!);
      res.removeHeader('X-Powered-By');
      done();
    },
  );
}
