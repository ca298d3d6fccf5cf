import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  CONTACTS_CODE,
  TAG_ADMIN_CODE,
  TOPIC_ADMIN_CODE,
  idSchema,
  summarySaveSchema,
  tagListQuery,
  tagPageQuery,
  tagSaveSchema,
  tagUpdateSchema,
  topicSaveSchema,
  type PermissionRequirement,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { withInput } from '../../platform/http/route.js';
import { engineOf } from '../conversation/index.js';
import { followed } from '../conversation/talk.service.js';
import * as tags from './tags.service.js';
import * as topics from './topics.service.js';
import { saveSummary } from './summary.service.js';

/** Who reads the tag and topic lists: the chat (A01), history (A04), contacts (A05) and their setup screens. */
const READERS = ['A01', 'A04', CONTACTS_CODE, TAG_ADMIN_CODE, TOPIC_ADMIN_CODE] as const;

/**
 * Tags (/api/tags, /api/tag/*), service topics (/api/sessionType, /api/topic/*) and the chat panel's
 * summary save (/api/talk/summary). Thin: parse, call, envelope.
 */
export function registerTags(app: FastifyInstance, { db }: AppContext): void {
  const route = <S extends z.ZodType>(
    method: 'GET' | 'POST' | Array<'GET' | 'POST'>,
    url: string,
    code: PermissionRequirement,
    schema: S,
    run: (req: FastifyRequest, input: z.output<S>) => Promise<unknown>,
  ) =>
    app.route({
      method,
      url,
      preHandler: requires(code),
      ...withInput(schema, async (req, input) => ok(await run(req, input))),
    });

  route('GET', '/api/tags', READERS, tagListQuery, (req, q) => tags.list(db, principal(req), q.tagtype));
  route('GET', '/api/tag/page', TAG_ADMIN_CODE, tagPageQuery.extend(pagingSchema.shape), (req, q) =>
    tags.page(db, principal(req), q, q),
  );
  route('POST', '/api/tag/save', TAG_ADMIN_CODE, tagSaveSchema, (req, b) => tags.save(db, principal(req), b));
  route('POST', '/api/tag/update', TAG_ADMIN_CODE, tagUpdateSchema, (req, b) =>
    tags.update(db, principal(req), b),
  );
  route(['GET', 'POST'], '/api/tag/delete', TAG_ADMIN_CODE, idSchema, (req, { id }) =>
    tags.remove(db, principal(req), id),
  );

  app.get('/api/sessionType', { preHandler: requires(READERS) }, async (req) =>
    ok(await topics.list(db, principal(req))),
  );
  route('POST', '/api/topic/save', TOPIC_ADMIN_CODE, topicSaveSchema, (req, b) =>
    topics.save(db, principal(req), b),
  );
  route(['GET', 'POST'], '/api/topic/delete', TOPIC_ADMIN_CODE, idSchema, (req, { id }) =>
    topics.remove(db, principal(req), id),
  );

  // The chat panel's service summary: the agent of the conversation, a collaborator, or a monitor.
  route('POST', '/api/talk/summary', 'A01', summarySaveSchema, async (req, { agentserviceid, ...rest }) => {
    const e = engineOf(app);
    if (!e) throw new Error('conversation module not registered');
    const s = await followed(e, principal(req), agentserviceid);
    return saveSummary(db, s, rest, e.clock.now());
  });
}
