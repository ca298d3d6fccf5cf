import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors.js';

/**
 * The one file of a multipart request (@fastify/multipart registered on the route's scope with its size
 * limit): no file → `file_required`, over the limit → 413 `file_too_large`.
 */
export async function readUpload(req: FastifyRequest): Promise<{ filename: string; data: Buffer }> {
  let part;
  try {
    part = await req.file();
  } catch {
    throw badRequest('file_required');
  }
  if (!part) throw badRequest('file_required');
  try {
    // The part's own content type is the client's claim: never asked (callers type files by content).
    return { filename: part.filename, data: await part.toBuffer() };
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('file_too_large', 413);
    throw err;
  }
}
