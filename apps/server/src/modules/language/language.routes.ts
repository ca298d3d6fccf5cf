import type { FastifyInstance } from 'fastify';
import { ok } from '../../platform/http/envelope.js';
import { languageList, languageTexts } from './language.service.js';

/** Public: the login page needs texts before anyone is logged in (exempted in guard.ts). */
export function registerLanguage(app: FastifyInstance): void {
  app.get('/api/language', async (req) => {
    const l = (req.query as Record<string, unknown>).l;
    return ok(languageTexts(typeof l === 'string' ? l : undefined));
  });
  app.get('/api/language/languageList', async () => ok(languageList()));
}
