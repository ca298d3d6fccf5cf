import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  TRANSLATE_CODE,
  TRANSLATE_SETUP_CODE,
  translateConfigSaveSchema,
  translateSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal } from '../../platform/auth/guard.js';
import { guardedRoute } from '../../platform/http/guarded-route.js';
import * as service from './translate.service.js';

/** Message translation (spec section 5) and its provider (set up next to the msgtranslate flag). */
export function registerTranslate(app: FastifyInstance, { db }: AppContext): void {
  const route = guardedRoute(app, TRANSLATE_SETUP_CODE);
  const base = '/api/translateMessage';
  route(
    'POST',
    `${base}/translate`,
    translateSchema,
    (req, b) => service.translate(db, principal(req), b.messageid),
    TRANSLATE_CODE,
  );
  route('GET', `${base}/config`, z.object({}), (req) => service.config(db, principal(req)));
  route('POST', `${base}/config/save`, translateConfigSaveSchema, (req, b) =>
    service.saveConfig(db, principal(req), b),
  );
}
