import type { FastifyInstance } from 'fastify';
import {
  AI_STATS_CODE,
  ROBOT_BIND_CODES,
  ROBOT_LIST_CODES,
  ROBOT_CODE,
  aiDegreeRobotQuery,
  aiLearnSchema,
  aiServiceSaveSchema,
  idSchema,
  kbNoInput,
  robotChatSchema,
  robotSaveSchema,
  robotUpdateSchema,
  webimAiQuery,
  webimAiSaveSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal } from '../../platform/auth/guard.js';
import { guardedRoute } from '../../platform/http/guarded-route.js';
import * as robots from './robot.service.js';
import * as ai from './aiservice.service.js';
import { answer } from './answer.service.js';
import { aiDegreeRobot, learn } from './stats.service.js';
import { turnsDone } from './flow.service.js';
import { engineOf } from '../conversation/index.js';

/**
 * Robots and the AI service (A09_A05_A01): /api/xiaoe/config/* (robots and their test chat),
 * /api/xiaoe/serviceai* (the optional OpenAI-compatible provider), /api/webim/ai (an access point's robot);
 * the robot's statistics (A06_A04_A01). Thin: parse, call, envelope.
 */
export function registerRobot(app: FastifyInstance, { db }: AppContext): void {
  const route = guardedRoute(app, ROBOT_CODE);
  const C = '/api/xiaoe/config';
  // Answers under way finish before the sockets and the database close.
  app.addHook('preClose', async () => {
    const e = engineOf(app);
    if (e) await turnsDone(e);
  });

  route('GET', `${C}/list`, kbNoInput, (req) => robots.list(db, principal(req)), ROBOT_LIST_CODES);
  route('GET', `${C}/detail`, idSchema, (req, { id }) => robots.detail(db, principal(req), id));
  route('POST', `${C}/save`, robotSaveSchema, (req, b) => robots.save(db, principal(req), b));
  route('POST', `${C}/update`, robotUpdateSchema, (req, b) => robots.update(db, principal(req), b));
  route(['GET', 'POST'], `${C}/delete`, idSchema, (req, { id }) => robots.remove(db, principal(req), id));
  // The test chat: a question answered as a visitor's would be (not logged, no chat, no handoff made).
  route('POST', `${C}/chat`, robotChatSchema, async (req, b) => {
    const p = principal(req);
    const robot = await robots.detail(db, p, b.id);
    return answer(db, p.orgi, robot, b.question, { fallbacks: 0, now: Date.now() });
  });

  route('GET', '/api/xiaoe/serviceai', kbNoInput, (req) => ai.get(db, principal(req)));
  route('POST', '/api/xiaoe/serviceai/save', aiServiceSaveSchema, (req, b) => ai.save(db, principal(req), b));
  route('POST', '/api/xiaoe/serviceai/test', kbNoInput, (req) => ai.test(db, principal(req)));

  route(
    'GET',
    '/api/webim/ai',
    webimAiQuery,
    (req, q) => robots.binding(db, principal(req), q.appid),
    ROBOT_BIND_CODES,
  );
  route(
    'POST',
    '/api/webim/ai',
    webimAiSaveSchema,
    (req, b) => robots.bind(db, principal(req), b.appid, b.robotid ?? null),
    ROBOT_BIND_CODES,
  );

  route(
    'GET',
    '/api/analyse/aiDegree/robot',
    aiDegreeRobotQuery,
    (req, q) => aiDegreeRobot(db, principal(req), q),
    AI_STATS_CODE,
  );
  route(
    'POST',
    '/api/analyse/aiDegree/learn',
    aiLearnSchema,
    (req, b) => learn(db, principal(req), b),
    AI_STATS_CODE,
  );
}
