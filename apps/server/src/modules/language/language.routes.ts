import type { FastifyInstance } from 'fastify';
import { languageQuery } from '@kefu/protocol';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import { languageList, languageTexts } from './language.service.js';

/** Public: the login page needs texts before anyone is logged in (exempted in guard.ts). */
export function registerLanguage(app: FastifyInstance): void {
  app.get(
    '/api/language',
    withInput(languageQuery, async (_req, { l }) => ok(languageTexts(l))),
  );
  app.get('/api/language/languageList', async () => ok(languageList()));
}
