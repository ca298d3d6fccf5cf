import type { FastifyInstance } from 'fastify';
import { VISITOR_TEXT_SCOPES, visitorTextQuery, visitorTextSaveSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './texts.service.js';

/** Any code of a text scope lets a user in; the service checks the scope asked for. */
const TEXT_CODES = [...new Set(Object.values(VISITOR_TEXT_SCOPES).map((s) => s.code))];

/** Visitor-facing texts in languages other than the base texts (prompts, satisfaction, widget sections). */
export function registerTexts(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(TEXT_CODES) };
  app.get('/api/visitorText', {
    ...guard,
    ...withInput(visitorTextQuery, async (req, q) => ok(await service.detail(db, principal(req), q))),
  });
  app.post('/api/visitorText/save', {
    ...guard,
    ...withInput(visitorTextSaveSchema, async (req, b) => ok(await service.save(db, principal(req), b))),
  });
}
