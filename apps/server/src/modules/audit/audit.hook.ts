import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/database.js';
import { newTimeId } from '../../platform/ids.js';
import { input } from '../../platform/http/input.js';
import { routeCatalog, type CatalogRoute } from '../../platform/http/route.js';
import { actionOf, auditable, redact } from './audit.policy.js';
import * as repo from './audit.repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the audited call changed, as its handler saw it (see auditBefore). */
    auditNote?: { before?: unknown; target?: string };
  }
}

/**
 * Lets a handler record the state before its change (and what it changed) in the call's audit record.
 * Without it the record still has the input, the result, who, when and from where.
 */
export function auditBefore(req: FastifyRequest, before: unknown, target?: string): void {
  req.auditNote = { before, target };
}

function targetOf(req: FastifyRequest, body: Record<string, unknown>, data: unknown): string {
  if (req.auditNote?.target) return req.auditNote.target;
  const fromInput = body.id ?? body.appid ?? body.userid ?? body.organid;
  if (typeof fromInput === 'string') return fromInput.slice(0, 200);
  const id = (data as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : '';
}

/**
 * The one hook behind the records screen: after any audited call succeeds (audit.policy.ts), one
 * append-only row with who, what, the state before (when the handler noted it), the input and result
 * (secrets replaced), IP and time. Written before the response goes out, so an acknowledged change always
 * has its record; a failure to write is logged, never turned into a failure of the change itself.
 */
export function installAuditHook(app: FastifyInstance, db: Db): void {
  let routes: Map<string, CatalogRoute> | undefined;
  app.addHook('onSend', async (req, reply, payload) => {
    const u = req.user;
    const url = req.routeOptions.url;
    if (!u || !url || reply.statusCode >= 400) return payload;
    routes ??= new Map(routeCatalog(app).map((r) => [`${r.method} ${r.url}`, r]));
    if (!auditable(req.method, url, routes.get(`${req.method} ${url}`)?.permission)) return payload;
    let data: unknown = null;
    if (typeof payload === 'string') {
      try {
        const env = JSON.parse(payload) as { success?: boolean; data?: unknown };
        if (env.success === false) return payload;
        data = env.data ?? null;
      } catch {
        data = null;
      }
    }
    const body = input(req);
    const path = req.url.split('?')[0] ?? url;
    const now = Date.now();
    try {
      await repo.insert(db.kysely, {
        id: newTimeId(now),
        orgi: u.orgi,
        userid: u.id,
        username: u.username,
        action: actionOf(path),
        method: req.method,
        path,
        target: targetOf(req, body, data),
        before: redact(req.auditNote?.before),
        after: redact(data ?? (Object.keys(body).length ? body : null)),
        ip: req.ip,
        useragent: String(req.headers['user-agent'] ?? '').slice(0, 512),
        createtime: now,
      });
    } catch (err) {
      req.log.error({ err, path }, 'audit record not written');
    }
    return payload;
  });
}
