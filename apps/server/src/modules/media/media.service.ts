import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UPLOAD_LIMITS, VOICE_MIME_TYPES } from '@kefu/protocol';
import { AppError, badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import type { Db } from '../../platform/db/database.js';

export type MediaKind = 'image' | 'file' | 'voice' | 'video';
export type UploadRoute = 'image' | 'file' | 'voice';

export interface UploadInput {
  route: UploadRoute;
  filename: string;
  mime: string;
  data: Buffer;
  owner: string;
  ownerKind: 'agent' | 'visitor';
  orgi: string;
}

export interface MediaDto {
  id: string;
  kind: MediaKind;
  mime: string;
  size: number;
  filename: string;
  url: string;
}

const IMAGE_SIGNATURES: Array<[string, number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]],
  ['image/bmp', [0x42, 0x4d]],
];

export const isImageData = (data: Buffer): boolean =>
  IMAGE_SIGNATURES.some(([, sig]) => sig.every((b, i) => data[i] === b));

const VOICE_EXT = /\.(mp3|mpeg|ogg)$/i;

/** Checks kind, type and size; writes the file under dataDir/uploads; records it. */
export async function saveUpload(db: Db, dataDir: string, u: UploadInput, now: number): Promise<MediaDto> {
  let kind: MediaKind;
  if (u.route === 'voice') {
    if (!(VOICE_MIME_TYPES as readonly string[]).includes(u.mime) && !VOICE_EXT.test(u.filename))
      throw badRequest('audio_format');
    if (u.data.length > UPLOAD_LIMITS.voice) throw new AppError('file_too_large', 413);
    kind = 'voice';
  } else if (u.route === 'image' || u.mime.startsWith('image/')) {
    if (!u.mime.startsWith('image/') || !isImageData(u.data)) throw badRequest('image_format');
    if (u.data.length > UPLOAD_LIMITS.image) throw new AppError('file_too_large', 413);
    kind = 'image';
  } else {
    if (u.data.length > UPLOAD_LIMITS.file) throw new AppError('file_too_large', 413);
    kind = u.mime.startsWith('video/') ? 'video' : u.mime.startsWith('audio/') ? 'voice' : 'file';
  }
  if (u.data.length === 0) throw badRequest('file_required');
  const id = newId();
  const dir = join(dataDir, 'uploads');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, id), u.data);
  const filename = u.filename.slice(0, 200) || id;
  await db.kysely
    .insertInto('media')
    .values({
      id,
      orgi: u.orgi,
      owner: u.owner,
      owner_kind: u.ownerKind,
      kind,
      mime: u.mime,
      size: u.data.length,
      filename,
      path: `uploads/${id}`,
      createtime: now,
    })
    .execute();
  return {
    id,
    kind,
    mime: u.mime,
    size: u.data.length,
    filename,
    url: `/res/${kind === 'voice' ? 'voice' : kind}.html?id=${id}`,
  };
}

export async function findMedia(db: Db, id: string) {
  const m = await db.kysely.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
  if (!m) throw notFound();
  return m;
}

/** A visitor may fetch its own uploads and the media of messages in its conversations. */
export async function visitorMayRead(
  db: Db,
  visitorId: string,
  mediaId: string,
  owner: string,
): Promise<void> {
  if (owner === visitorId) return;
  const hit = await db.kysely
    .selectFrom('chat_message')
    .select('id')
    .where('attachmentid', '=', mediaId)
    .where('usession', '=', visitorId)
    .executeTakeFirst();
  if (!hit) throw forbidden();
}
