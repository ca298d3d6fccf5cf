import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The repository root: the nearest folder above this module that holds apps/console. Found by walking up
 * because this code runs from apps/server/src (tests) and bundled from apps/server/dist (npm start).
 */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'apps/console/package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(from, '../../../../..');
  }
}
const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
export const CONSOLE_DIST = join(repoRoot, 'apps/console/dist');
export const VISITOR_DIST = join(repoRoot, 'apps/visitor/dist');
const LOADER = '/im/loader.js';

/**
 * Serves the built console (history-mode fallback to index.html) and the visitor bundle.
 * API-looking paths never fall back to HTML so clients get the JSON envelope.
 */
export async function installStatic(app: FastifyInstance): Promise<void> {
  if (existsSync(VISITOR_DIST)) {
    await app.register(fastifyStatic, {
      root: VISITOR_DIST,
      prefix: '/im/',
      decorateReply: false,
      wildcard: true,
    });
    // The embed loader is loaded by company websites on other origins (helmet's default is same-origin).
    // A callback hook that looks at the url without splitting it: it runs on every response.
    app.addHook('onSend', (req, reply, payload, done) => {
      const url = req.url;
      if (url.startsWith(LOADER) && (url.length === LOADER.length || url[LOADER.length] === '?'))
        void reply.header('cross-origin-resource-policy', 'cross-origin');
      done(null, payload);
    });
    // The visitor pages (/visitor, /visitor/text|pc|mobile|mini|navigation) are the visitor app, not the console.
    const visitorPage = async (_req: FastifyRequest, reply: FastifyReply) =>
      reply
        .type('text/html')
        .header('cache-control', 'no-cache')
        .send(await readFile(join(VISITOR_DIST, 'index.html')));
    app.get('/visitor', visitorPage);
    app.get('/visitor/*', visitorPage);
  }
  if (!existsSync(CONSOLE_DIST)) return;
  await app.register(fastifyStatic, { root: CONSOLE_DIST, prefix: '/', wildcard: false });
  // Browsers (and pages without an icon link, like the demo site) ask for /favicon.ico: the SVG one.
  app.get('/favicon.ico', (_req, reply) => reply.redirect('/favicon.svg', 301));
  app.get('/*', (req, reply) => {
    const url = req.url.split('?')[0];
    if (url.startsWith('/api/') || url.startsWith('/tokens') || url.startsWith('/socket.io')) {
      return reply.callNotFound();
    }
    // Files built after start-up (a rebuild while the server runs) are not among the routes
    // registered at start, so serve anything that looks like a file from disk; @fastify/send
    // keeps the path inside the root and answers 404 for a missing one.
    if (/\.[A-Za-z0-9]+$/.test(url)) return reply.sendFile(decodeURIComponent(url.slice(1)));
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
}
