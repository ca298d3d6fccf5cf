import { CODES, errorText, type ErrorKey } from '@kefu/protocol';

/** A business error that becomes `{success:false, code, msg, key}`; thrown by services, shaped by the handler. */
export class AppError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly code: number = CODES.badRequest,
    readonly fields?: Record<string, string>,
    readonly status: number = code >= 400 && code < 600 ? code : 200,
  ) {
    super(key);
  }
  text(lang: string): string {
    return errorText(this.key, lang);
  }
}

export const badRequest = (key: ErrorKey, fields?: Record<string, string>) =>
  new AppError(key, CODES.badRequest, fields);
export const conflict = (key: ErrorKey) => new AppError(key, CODES.conflict);
export const notFound = (key: ErrorKey = 'not_found') => new AppError(key, CODES.notFound);
export const forbidden = (key: ErrorKey = 'forbidden') => new AppError(key, CODES.forbidden);
export const unauthorized = (key: ErrorKey = 'not_logged_in') => new AppError(key, CODES.unauthorized);
