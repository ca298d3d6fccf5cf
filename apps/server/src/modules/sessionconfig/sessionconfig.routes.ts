import type { FastifyInstance } from 'fastify';
import { SESSION_CONFIG_SECTIONS, type SessionConfigSection } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok, requestLang } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './sessionconfig.service.js';

/** Permission code of each save section (spec section 2, /setup). */
export const SECTION_CODES: Readonly<Record<SessionConfigSection, string>> = {
  prompt: 'A09_A03_A01',
  allocation: 'A09_A03_A02',
  lineUp: 'A09_A03_A05',
  other: 'A09_A03_A11',
};

export function registerSessionConfig(app: FastifyInstance, { db }: AppContext): void {
  // Any logged-in user: the console loads it at start-up (spec section 4, step 4).
  app.get('/api/sessionConfig', async (req) => ok(await service.get(db, principal(req).orgi)));
  for (const section of Object.keys(SECTION_CODES) as SessionConfigSection[]) {
    app.post(`/api/sessionConfig/${section}/save`, {
      preHandler: requires(SECTION_CODES[section]),
      ...withInput(SESSION_CONFIG_SECTIONS[section], async (req, body) =>
        ok(
          await service.saveSection(db, principal(req).orgi, section, body),
          requestLang(req) === 'en' ? 'Saved' : '保存成功',
        ),
      ),
    });
  }
}
