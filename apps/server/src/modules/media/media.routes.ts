import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UPLOAD_LIMITS, uploadFormSchema } from '@kefu/protocol';
import type { ModuleRegistrar } from '../../platform/context.js';
import { authenticate, principal, tokenFrom } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { AppError, badRequest, forbidden, unauthorized } from '../../platform/http/errors.js';
import { realScheduler } from '../../platform/jobs/scheduler.js';
import { takes } from '../../platform/http/route.js';
import type { Engine } from '../conversation/engine.js';
import { visitorFromCredential } from '../conversation/visitor.service.js';
import { engineOf } from '../conversation/index.js';
import { findMedia, saveUpload, visitorMayRead, type UploadRoute } from './media.service.js';

async function readFile(req: FastifyRequest): Promise<{ filename: string; mime: string; data: Buffer }> {
  let part;
  try {
    part = await req.file();
  } catch {
    throw badRequest('file_required');
  }
  if (!part) throw badRequest('file_required');
  try {
    return { filename: part.filename, mime: part.mimetype, data: await part.toBuffer() };
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('file_too_large', 413);
    throw err;
  }
}

const query = (req: FastifyRequest): Record<string, unknown> =>
  (req.query as Record<string, unknown> | undefined) ?? {};

/**
 * Uploads (agents under /api, visitors at /im/upload with their credential `vt`) and the media pages
 * /res/{image,file,video,voice}.html?id= (agent token in header or ?authorization=, or visitor ?vt=).
 */
export const registerMedia: ModuleRegistrar = async (app, ctx) => {
  const now = () =>
    (engineOf(app) as Engine | undefined)?.clock.now() ?? (ctx.scheduler ?? realScheduler).now();
  await app.register(async (child: FastifyInstance) => {
    await child.register(multipart, { limits: { fileSize: UPLOAD_LIMITS.file, files: 1 } });
    const agentUpload = (route: UploadRoute) => async (req: FastifyRequest) => {
      const p = principal(req);
      const f = await readFile(req);
      return ok(
        await saveUpload(
          ctx.db,
          ctx.config.dataDir,
          { route, ...f, owner: p.id, ownerKind: 'agent', orgi: p.orgi },
          now(),
        ),
      );
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
      const kind = query(req).kind;
      const route: UploadRoute = kind === 'image' || kind === 'voice' ? kind : 'file';
      const f = await readFile(req);
      return ok(
        await saveUpload(
          ctx.db,
          ctx.config.dataDir,
          { route, ...f, owner: v.userid, ownerKind: 'visitor', orgi: v.orgi },
          now(),
        ),
      );
    });
  });

  for (const page of ['image', 'file', 'video', 'voice'] as const) {
    app.get(`/res/${page}.html`, async (req, reply) => {
      const id = query(req).id;
      if (typeof id !== 'string' || !id) throw badRequest('required', { id: 'required' });
      const m = await findMedia(ctx.db, id);
      const vt = query(req).vt;
      if (typeof vt === 'string' && vt) {
        const e = engineOf(app);
        const v = e ? await visitorFromCredential(e, vt) : null;
        if (!v) throw unauthorized('visitor_token');
        await visitorMayRead(ctx.db, v.userid, m.id, m.owner);
      } else {
        const p = await authenticate(ctx.db, tokenFrom(req));
        if (p.orgi !== m.orgi) throw forbidden();
      }
      void reply.header('content-type', m.mime).header('cache-control', 'private, max-age=3600');
      if (page === 'file')
        void reply.header(
          'content-disposition',
          `attachment; filename*=UTF-8''${encodeURIComponent(m.filename)}`,
        );
      return reply.send(createReadStream(join(ctx.config.dataDir, m.path)));
    });
  }
};
