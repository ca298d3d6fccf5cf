import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CODES,
  MEDIA_INLINE_TYPES,
  OPAQUE_TYPE,
  ORPHAN_UPLOAD_TTL_MS,
  UPLOAD_LIMITS,
  type MediaPage,
} from '@kefu/protocol';
import { AppError, badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { UploadQuota } from '../../platform/http/security-config.js';
import type { Engine } from '../conversation/engine.js';
import { followed } from '../conversation/talk.service.js';
import * as repo from './media.repository.js';
import { SNIFF_BYTES, sniff } from './sniff.js';

export type MediaKind = 'image' | 'file' | 'voice' | 'video';
export type UploadRoute = 'image' | 'file' | 'voice';

export interface UploadInput {
  route: UploadRoute;
  filename: string;
  data: Buffer;
  owner: string;
  ownerKind: 'agent' | 'visitor';
  orgi: string;
  /** The client's address (as the proxy settings resolve it); visitor uploads are counted by it. */
  ip: string;
}

export interface MediaDto {
  id: string;
  kind: MediaKind;
  mime: string;
  size: number;
  filename: string;
  url: string;
}

const inline = (page: MediaPage, mime: string): boolean => MEDIA_INLINE_TYPES[page].includes(mime);

/**
 * The kind and type of an upload, from its bytes only. The image and voice routes take only their own
 * media; the file route keeps a recognised image, video or audio as such and anything else as an opaque
 * file, which is only ever served as a download.
 */
export function typeUpload(route: UploadRoute, data: Buffer): { kind: MediaKind; mime: string } {
  const mime = sniff(data.subarray(0, SNIFF_BYTES));
  if (route === 'image') {
    if (!inline('image', mime)) throw badRequest('image_format');
    return { kind: 'image', mime };
  }
  if (route === 'voice') {
    if (!inline('voice', mime)) throw badRequest('audio_format');
    return { kind: 'voice', mime };
  }
  for (const kind of ['image', 'video', 'voice'] as const) if (inline(kind, mime)) return { kind, mime };
  return { kind: 'file', mime: OPAQUE_TYPE };
}

type Used = { files: number; bytes: number };
const over = (u: Used, files: number, bytes: number, pending: Used): boolean =>
  u.files + pending.files > files || u.bytes + pending.bytes > bytes;

/**
 * Whether a visitor's upload passes its quotas (per visitor and per address, over the window). Asked
 * before the body is read (`pending` one more file) and again once the row is stored (`pending` none), so
 * uploads racing each other can be refused but never all get through.
 */
export async function visitorWithinQuota(
  db: Db,
  q: UploadQuota,
  who: { owner: string; ip: string },
  now: number,
  pending: Used,
): Promise<boolean> {
  const since = now - q.windowMs;
  const mine = await repo.uploadedSince(db.kysely, { owner: who.owner }, since);
  if (over(mine, q.visitorFiles, q.visitorBytes, pending)) return false;
  const fromIp = await repo.uploadedSince(db.kysely, { ip: who.ip }, since);
  return !over(fromIp, q.ipFiles, q.ipBytes, pending);
}

export const uploadQuotaError = (): AppError => new AppError('upload_quota', CODES.tooManyRequests);

/** Types and checks an upload, writes it under dataDir/uploads and records it within the tenant's cap. */
export async function saveUpload(
  db: Db,
  dataDir: string,
  u: UploadInput,
  now: number,
  quota: UploadQuota,
): Promise<MediaDto> {
  if (u.data.length === 0) throw badRequest('file_required');
  const { kind, mime } = typeUpload(u.route, u.data);
  if (u.data.length > UPLOAD_LIMITS[u.route]) throw new AppError('file_too_large', 413);
  const id = newId();
  const dir = join(dataDir, 'uploads');
  await mkdir(dir, { recursive: true });
  const file = join(dir, id);
  await writeFile(file, u.data);
  const filename = u.filename.slice(0, 200) || id;
  const size = u.data.length;
  try {
    const kept = await db.kysely.transaction().execute(async (k) => {
      if (!(await repo.reserveBytes(k, u.orgi, size, quota.tenantBytes))) return false;
      await repo.insertMedia(k, {
        id,
        orgi: u.orgi,
        owner: u.owner,
        owner_kind: u.ownerKind,
        kind,
        mime,
        size,
        filename,
        path: `uploads/${id}`,
        createtime: now,
        ip: u.ip,
      });
      return true;
    });
    if (!kept) throw new AppError('storage_full', CODES.insufficientStorage);
    if (u.ownerKind === 'visitor' && !(await visitorWithinQuota(db, quota, u, now, { files: 0, bytes: 0 }))) {
      await db.kysely.transaction().execute(async (k) => {
        await repo.deleteMedia(k, id);
        await repo.releaseBytes(k, u.orgi, size);
      });
      throw uploadQuotaError();
    }
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
  return { id, kind, mime, size, filename, url: `/res/${kind}.html?id=${id}` };
}

export async function findMedia(db: Db, id: string): Promise<repo.MediaRow> {
  const m = await repo.findMedia(db.kysely, id);
  if (!m) throw notFound();
  return m;
}

/** A visitor may fetch its own uploads and the files of messages in its conversations. */
export async function visitorMayRead(db: Db, visitorId: string, m: repo.MediaRow): Promise<void> {
  if (m.owner_kind === 'visitor' && m.owner === visitorId) return;
  if (!(await repo.visitorMessageWith(db.kysely, visitorId, m.id))) throw forbidden();
}

/**
 * An agent may fetch its own uploads and the files of conversations it may read (its own, ones it
 * collaborates on or handed over, or any in its tenant with monitor or history rights: talk.followed).
 */
export async function agentMayRead(e: Engine, p: Principal, m: repo.MediaRow): Promise<void> {
  if (m.orgi !== p.orgi) throw forbidden();
  if (m.owner_kind === 'agent' && m.owner === p.id) return;
  for (const sid of await repo.conversationsWith(e.db.kysely, m.id)) {
    try {
      await followed(e, p, sid);
      return;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  throw forbidden();
}

/** The type a /res page serves a stored file as: sniffed again from the file, inline only if allowed. */
export async function servedType(
  dataDir: string,
  m: repo.MediaRow,
  page: MediaPage,
): Promise<{ type: string; inline: boolean }> {
  const head = Buffer.alloc(SNIFF_BYTES);
  let n: number;
  try {
    const fh = await open(join(dataDir, m.path), 'r');
    try {
      n = (await fh.read(head, 0, SNIFF_BYTES, 0)).bytesRead;
    } finally {
      await fh.close();
    }
  } catch {
    throw notFound();
  }
  const type = sniff(head.subarray(0, n));
  return inline(page, type) ? { type, inline: true } : { type: OPAQUE_TYPE, inline: false };
}

/** Removes visitor uploads no sent message carries, once they are a day old; returns how many. */
export async function sweepOrphans(db: Db, dataDir: string, now: number): Promise<number> {
  const k = db.kysely;
  const batch = 200;
  let removed = 0;
  for (;;) {
    const rows = await repo.orphans(k, now - ORPHAN_UPLOAD_TTL_MS, batch);
    for (const m of rows) {
      if (!(await repo.deleteUnattached(k, m.id))) continue;
      await repo.releaseBytes(k, m.orgi, Number(m.size));
      await rm(join(dataDir, m.path), { force: true });
      removed++;
    }
    if (rows.length < batch) return removed;
  }
}
