import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MEDIA_PAGES, UPLOAD_LIMITS, uploadFormSchema } from '@kefu/protocol';
import type { ModuleRegistrar } from '../../platform/context.js';
import { authenticate, mediaTokenFrom, principal } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { badRequest, unauthorized } from '../../platform/http/errors.js';
import { readUpload as readFile } from '../../platform/http/upload.js';
import { realScheduler } from '../../platform/jobs/scheduler.js';
import { takes } from '../../platform/http/route.js';
import type { Engine } from '../conversation/engine.js';
import { visitorFromCredential } from '../conversation/visitor.service.js';
import { engineOf } from '../conversation/index.js';
import {
  agentMayRead,
  findMedia,
  saveUpload,
  servedType,
  sweepOrphans,
  uploadQuotaError,
  visitorMayRead,
  visitorWithinQuota,
  type UploadRoute,
} from './media.service.js';

/** How often visitor uploads that were never sent are looked for (they go once a day old). */
export const ORPHAN_SWEEP_MS = 60 * 60_000;

const query = (req: FastifyRequest): Record<string, unknown> =>
  (req.query as Record<string, unknown> | undefined) ?? {};

/**
 * Uploads (agents under /api, visitors at /im/upload with their credential `vt`) and the media pages
 * /res/{image,file,video,voice}.html?id= (agent token in header or ?authorization=, or visitor ?vt=).
 */
export const registerMedia: ModuleRegistrar = async (app, ctx) => {
  const { db, config } = ctx;
  const quota = config.security.uploadQuota;
  const clock = ctx.scheduler ?? realScheduler;
  const now = () => (engineOf(app) as Engine | undefined)?.clock.now() ?? clock.now();

  await app.register(async (child: FastifyInstance) => {
    await child.register(multipart, { limits: { fileSize: UPLOAD_LIMITS.file, files: 1 } });
    const agentUpload = (route: UploadRoute) => async (req: FastifyRequest) => {
      const p = principal(req);
      const f = await readFile(req);
      const u = { route, ...f, owner: p.id, ownerKind: 'agent' as const, orgi: p.orgi, ip: req.ip };
      return ok(await saveUpload(db, config.dataDir, u, now(), quota));
    };
    // The file is read from the multipart stream by readFile; the schema only describes the form.
    const form = takes(uploadFormSchema, 'multipart/form-data');
    child.post('/api/upload', form, agentUpload('image'));
    child.post('/api/file/upload', form, agentUpload('file'));
    child.post('/api/voice/upload', form, agentUpload('voice'));
    child.post('/im/upload', async (req) => {
      const e = engineOf(app);
      const vt = query(req).vt;
      const v = e && typeof vt === 'string' ? await visitorFromCredential(e, vt) : null;
      if (!v) throw unauthorized('visitor_token');
      const who = { owner: v.userid, ip: req.ip };
      // Before the body is read: a visitor over its quota does not get to send 20 MB first.
      if (!(await visitorWithinQuota(db, quota, who, now(), { files: 1, bytes: 0 })))
        throw uploadQuotaError();
      const kind = query(req).kind;
      const route: UploadRoute = kind === 'image' || kind === 'voice' ? kind : 'file';
      const f = await readFile(req);
      const u = { route, ...f, ...who, ownerKind: 'visitor' as const, orgi: v.orgi };
      return ok(await saveUpload(db, config.dataDir, u, now(), quota));
    });
  });

  for (const page of MEDIA_PAGES) {
    app.get(`/res/${page}.html`, async (req, reply) => {
      const id = query(req).id;
      if (typeof id !== 'string' || !id) throw badRequest('required', { id: 'required' });
      const m = await findMedia(db, id);
      const vt = query(req).vt;
      const e = engineOf(app);
      if (typeof vt === 'string' && vt) {
        const v = e ? await visitorFromCredential(e, vt) : null;
        if (!v) throw unauthorized('visitor_token');
        await visitorMayRead(db, v.userid, m);
      } else {
        const p = await authenticate(db, mediaTokenFrom(req));
        if (!e) throw unauthorized();
        await agentMayRead(e, p, m);
      }
      // The page's allow-list decides, on the file's bytes; the rest is a download, never rendered.
      const served = await servedType(config.dataDir, m, page);
      void reply.header('content-type', served.type).header('cache-control', 'private, max-age=3600');
      if (!served.inline)
        void reply.header(
          'content-disposition',
          `attachment; filename*=UTF-8''${encodeURIComponent(m.filename)}`,
        );
      return reply.send(createReadStream(join(config.dataDir, m.path)));
    });
  }

  const stop = clock.every(ORPHAN_SWEEP_MS, async () => {
    const removed = await sweepOrphans(db, config.dataDir, now());
    if (removed) app.log.info({ removed }, 'unsent visitor uploads removed');
  });
  app.addHook('preClose', async () => stop());
};
