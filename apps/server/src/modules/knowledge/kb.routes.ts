import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  KB_LIMITS,
  KNOWLEDGE_CODE,
  ROBOT_CODE,
  exportOptions,
  idSchema,
  kbEnableSchema,
  kbExpSearchSchema,
  kbIdsSchema,
  kbImportFormSchema,
  kbItemListQuery,
  kbItemSaveSchema,
  kbItemUpdateSchema,
  kbNoInput,
  kbSuggestQuery,
  kbSynonymSaveSchema,
  kbSynonymUpdateSchema,
  kbTemplateQuery,
  kbTopicSaveSchema,
  kbTypeSaveSchema,
  kbTypeUpdateSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok, requestLang } from '../../platform/http/envelope.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { takes, withInput } from '../../platform/http/route.js';
import { guardedRoute } from '../../platform/http/guarded-route.js';
import { readUpload } from '../../platform/http/upload.js';
import { parse } from '../../platform/http/validate.js';
import { engineOf } from '../conversation/index.js';
import { followed } from '../conversation/talk.service.js';
import * as types from './types.service.js';
import * as items from './items.service.js';
import * as synonyms from './synonyms.service.js';
import { train } from './kb.index.js';
import { exportItems, importItems, template } from './kb.sheet.js';
import { assist, latestVisitorText } from './suggest.service.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The knowledge base (A09_A05_A02): /api/xiaoe/knowledgeType/* (types), /api/xiaoe/knowledge/* (items,
 * topic relations, train, template download, import, expsearch / expall exports, synonyms) and the agent
 * assist of /dialogue (A01). Thin: parse, call, envelope.
 */
export async function registerKnowledge(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  const route = guardedRoute(app, KNOWLEDGE_CODE);
  const lang = (req: FastifyRequest) => (requestLang(req).startsWith('en') ? 'en' : 'zh');
  const T = '/api/xiaoe/knowledgeType';
  const K = '/api/xiaoe/knowledge';

  route('GET', `${T}/list`, kbNoInput, (req) => types.list(db, principal(req)), [KNOWLEDGE_CODE, ROBOT_CODE]);
  route('POST', `${T}/save`, kbTypeSaveSchema, (req, b) => types.save(db, principal(req), b));
  route('POST', `${T}/update`, kbTypeUpdateSchema, (req, b) => types.update(db, principal(req), b));
  route(['GET', 'POST'], `${T}/delete`, idSchema, (req, { id }) => types.remove(db, principal(req), id));

  route('GET', `${K}/list`, kbItemListQuery.extend(pagingSchema.shape), (req, q) =>
    items.page(db, principal(req), q, q),
  );
  route('GET', `${K}/detail`, idSchema, (req, { id }) => items.detail(db, principal(req), id));
  route('POST', `${K}/save`, kbItemSaveSchema, (req, b) => items.save(db, principal(req), b));
  route('POST', `${K}/update`, kbItemUpdateSchema, (req, { id, ...b }) =>
    items.update(db, principal(req), id, b),
  );
  route(['GET', 'POST'], `${K}/delete`, idSchema, (req, { id }) => items.remove(db, principal(req), [id]));
  route('POST', `${K}/batdel`, kbIdsSchema, (req, { ids }) => items.remove(db, principal(req), ids));
  route('POST', `${K}/enabled`, kbEnableSchema, (req, b) =>
    items.setEnabled(db, principal(req), b.ids, b.enabled),
  );
  route('GET', `${K}/topic`, idSchema, (req, { id }) => items.topics(db, principal(req), id));
  route('POST', `${K}/topic/save`, kbTopicSaveSchema, (req, b) =>
    items.topics(db, principal(req), b.id, b.topics),
  );
  route(['GET', 'POST'], `${K}/train`, kbNoInput, (req) => train(db, principal(req).orgi));

  app.get(`${K}/download`, {
    preHandler: requires(KNOWLEDGE_CODE),
    ...withInput(kbTemplateQuery, async (req, q, reply) => {
      const l = q.lang ?? lang(req);
      return reply
        .type(XLSX)
        .header('content-disposition', `attachment; filename="knowledge-template-${l}.xlsx"`)
        .send(await template(l));
    }),
  });
  route('GET', `${K}/expsearch`, kbExpSearchSchema, (req, q) =>
    exportItems(ctx, principal(req), q, lang(req), q.tz),
  );
  route('GET', `${K}/expall`, exportOptions, (req, q) =>
    exportItems(ctx, principal(req), {}, lang(req), q.tz),
  );

  route('GET', `${K}/synonym/list`, kbNoInput, (req) => synonyms.list(db, principal(req)));
  route('POST', `${K}/synonym/save`, kbSynonymSaveSchema, (req, b) =>
    synonyms.save(db, principal(req), b.words),
  );
  route('POST', `${K}/synonym/update`, kbSynonymUpdateSchema, (req, b) =>
    synonyms.update(db, principal(req), b.id, b.words),
  );
  route(['GET', 'POST'], `${K}/synonym/delete`, idSchema, (req, { id }) =>
    synonyms.remove(db, principal(req), id),
  );

  // Agent assist: the chat's latest visitor text (a conversation the agent follows) or a typed text.
  route(
    'GET',
    `${K}/suggest`,
    kbSuggestQuery,
    async (req, q) => {
      const p = principal(req);
      let text = q.q ?? '';
      if (q.agentserviceid) {
        const e = engineOf(app);
        if (!e) throw new Error('conversation module not registered');
        text = await latestVisitorText(db, (await followed(e, p, q.agentserviceid)).id);
      }
      return assist(db, p.orgi, text);
    },
    ['A01', KNOWLEDGE_CODE],
  );

  await app.register(async (child) => {
    await child.register(multipart, { limits: { fileSize: KB_LIMITS.importBytes, files: 1 } });
    child.post(
      `${K}/import`,
      { preHandler: requires(KNOWLEDGE_CODE), ...takes(kbImportFormSchema, 'multipart/form-data') },
      async (req) => {
        const { tz } = parse(exportOptions, req.query);
        return ok(await importItems(db, principal(req), (await readUpload(req)).data, tz));
      },
    );
  });
}
