import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * The Content-Security-Policy directives, as helmet's defaults (base-uri, font-src, form-action,
 * object-src, script-src-attr, upgrade-insecure-requests) merged with ours, in helmet's order.
 */
export const CSP_DIRECTIVES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['default-src', ["'self'"]],
  ['base-uri', ["'self'"]],
  ['font-src', ["'self'", 'https:', 'data:']],
  ['form-action', ["'self'"]],
  // The visitor widget is framed by company websites.
  ['frame-ancestors', ['*']],
  ['img-src', ["'self'", 'data:', 'blob:']],
  ['object-src', ["'none'"]],
  ['script-src', ["'self'"]],
  ['script-src-attr', ["'none'"]],
  // antd's css-in-js writes <style> tags at run time.
  ['style-src', ["'self'", "'unsafe-inline'"]],
  ['upgrade-insecure-requests', []],
  ['media-src', ["'self'", 'blob:']],
  ['connect-src', ["'self'", 'ws:', 'wss:']],
];

/**
 * The security headers every response carries: exactly what helmet 8 sets with our configuration
 * (CSP above, no Cross-Origin-Embedder-Policy, no X-Frame-Options), computed once at start-up instead of
 * helmet rebuilding its middleware on every request (test: security-headers.test.ts compares both).
 */
export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  [
    'Content-Security-Policy',
    CSP_DIRECTIVES.map(([name, values]) => (values.length ? `${name} ${values.join(' ')}` : name)).join(';'),
  ],
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

const NAMES = SECURITY_HEADERS.map(([n]) => n);
const VALUES = SECURITY_HEADERS.map(([, v]) => v);

/**
 * Sets SECURITY_HEADERS on the raw response in an onRequest hook, as helmet did (so a later
 * reply.header(), e.g. /im/loader.js's cross-origin-resource-policy, still overrides one).
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook(
    'onRequest',
    function securityHeaders(_req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
      const res = reply.raw;
      for (let i = 0; i < NAMES.length; i++) res.setHeader(NAMES[i]!, VALUES[i]!);
      res.removeHeader('X-Powered-By');
      done();
    },
  );
}
