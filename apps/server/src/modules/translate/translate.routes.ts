import type { FastifyInstance } from 'fastify';
import {
  TRANSLATE_CODE,
  TRANSLATE_SETUP_CODE,
  translateConfigSaveSchema,
  translateSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './translate.service.js';

/** Message translation (spec section 5) and its provider (set up next to the msgtranslate flag). */
export function registerTranslate(app: FastifyInstance, { db }: AppContext): void {
  app.post('/api/translateMessage/translate', {
    preHandler: requires(TRANSLATE_CODE),
    ...withInput(translateSchema, async (req, b) =>
      ok(await service.translate(db, principal(req), b.messageid)),
    ),
  });
  const setup = { preHandler: requires(TRANSLATE_SETUP_CODE) };
  app.get('/api/translateMessage/config', setup, async (req) => ok(await service.config(db, principal(req))));
  app.post('/api/translateMessage/config/save', {
    ...setup,
    ...withInput(translateConfigSaveSchema, async (req, b) =>
      ok(await service.saveConfig(db, principal(req), b)),
    ),
  });
}
