import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  monitorAiChangeQuery,
  monitorAuditQuery,
  monitorChatQuery,
  monitorDesktopQuery,
  monitorEndAgentQuery,
  monitorIndexQuery,
  monitorRuleSaveBody,
  monitorSayBody,
  monitorStaticAgentQuery,
  monitorTranscriptQuery,
  monitorTransferQuery,
  monitorWhispersQuery,
  type PermissionRequirement,
} from '@kefu/protocol';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import type { Engine } from '../conversation/engine.js';
import * as view from './monitor.service.js';
import * as act from './supervise.service.js';
import * as say from './say.service.js';
import * as records from './records.service.js';

/** Code of the monitor (spec section 2); the scope (A03_A01 / A03_A02) is checked by every service call. */
export const MONITOR_CODE = 'A03';

/** /api/monitor/* — thin: parse, call, envelope. */
export function monitorRoutes(app: FastifyInstance, e: Engine): void {
  const route =
    (method: 'GET' | 'POST', code: PermissionRequirement = MONITOR_CODE) =>
    <S extends z.ZodType>(
      path: string,
      schema: S,
      run: (req: FastifyRequest, q: z.output<S>) => Promise<unknown>,
    ) =>
      app.route({
        method,
        url: `/api/monitor/${path}`,
        preHandler: requires(code),
        ...withInput(schema, async (req, q) => ok(await run(req, q))),
      });
  const get = route('GET');
  const post = route('POST');
  /** A call that takes nothing (listed in NO_INPUT_ROUTES of platform/http/openapi.ts). */
  const bare = (path: string, run: (req: FastifyRequest) => Promise<unknown>) =>
    app.get(`/api/monitor/${path}`, { preHandler: requires(MONITOR_CODE) }, async (req) =>
      ok(await run(req)),
    );

  get('desktop', monitorDesktopQuery, (req, q) => view.desktop(e, principal(req), q));
  get('current/index', monitorIndexQuery, (req, q) => view.currentIndex(e, principal(req), q));
  bare('timeoutAgentserviceSize', (req) => view.timeoutSize(e, principal(req)));
  get('staticagent', monitorStaticAgentQuery, (req, q) => view.staticAgent(e, principal(req), q));
  get('endAgent', monitorEndAgentQuery, (req, q) => act.endAgent(e, principal(req), q));
  get('end', monitorChatQuery, async (req, q) => {
    await act.endChat(e, principal(req), q);
    return null;
  });
  get('transfer', monitorTransferQuery, (req, q) => act.transfer(e, principal(req), q));
  get('takeover', monitorChatQuery, (req, q) => act.takeover(e, principal(req), q));
  get('aiChange', monitorAiChangeQuery, (req, q) => act.aiChange(e, principal(req), q));
  post('whisper', monitorSayBody, (req, b) => say.whisper(e, principal(req), b));
  post('barge', monitorSayBody, (req, b) => say.barge(e, principal(req), b));
  // The chat's own agents read its whispers too (dialogue screen), hence A01 or A03.
  route('GET', ['A01', MONITOR_CODE])('whispers', monitorWhispersQuery, (req, q) =>
    say.whispersFor(e, principal(req), q.agentserviceid),
  );
  get('chatMessage', monitorTranscriptQuery, (req, q) => records.transcript(e, principal(req), q));
  get('audit', monitorAuditQuery, (req, q) => records.auditList(e, principal(req), q));
  bare('rules', (req) => records.rules(e, principal(req)));
  post('rules/save', monitorRuleSaveBody, (req, b) => records.saveRules(e, principal(req), b));
}
