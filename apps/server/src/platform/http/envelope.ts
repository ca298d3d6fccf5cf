import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CODES, errorText, type OkEnvelope, type ErrEnvelope } from '@kefu/protocol';
import { AppError } from './errors.js';

export function ok<T>(data: T, msg = 'ok'): OkEnvelope<T> {
  return { success: true, data, msg, code: CODES.ok };
}

/** Language of error texts: the user's saved language, else ?l=, else Accept-Language, else zh. */
export function requestLang(req: FastifyRequest): string {
  const fromUser = req.user?.language;
  if (fromUser) return fromUser;
  const q = (req.query as Record<string, unknown> | undefined)?.l;
  if (typeof q === 'string' && q) return q;
  const al = req.headers['accept-language'];
  return typeof al === 'string' && al.toLowerCase().startsWith('en') ? 'en' : 'zh';
}

function envelopeFor(err: unknown, req: FastifyRequest): { status: number; body: ErrEnvelope } {
  const lang = requestLang(req);
  if (err instanceof AppError) {
    return {
      status: err.status,
      body: { success: false, code: err.code, msg: err.text(lang), key: err.key, fields: err.fields },
    };
  }
  const fe = err as FastifyError;
  if (
    fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    (fe.statusCode === 400 && fe.name === 'SyntaxError')
  ) {
    return {
      status: 400,
      body: {
        success: false,
        code: CODES.badRequest,
        msg: errorText('invalid_body', lang),
        key: 'invalid_body',
      },
    };
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fe.statusCode === 413) {
    return {
      status: 413,
      body: {
        success: false,
        code: CODES.payloadTooLarge,
        msg: errorText('too_long', lang),
        key: 'too_long',
      },
    };
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return {
      status: 415,
      body: {
        success: false,
        code: CODES.badRequest,
        msg: errorText('invalid_body', lang),
        key: 'invalid_body',
      },
    };
  }
  if (fe.statusCode === 429) {
    return {
      status: 429,
      body: {
        success: false,
        code: CODES.tooManyRequests,
        msg: errorText('login_rate_limited', lang),
        key: 'login_rate_limited',
      },
    };
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { status: fe.statusCode, body: { success: false, code: fe.statusCode, msg: fe.message } };
  }
  req.log.error({ err }, 'unhandled error');
  return {
    status: 500,
    body: {
      success: false,
      code: CODES.serverError,
      msg: errorText('server_error', lang),
      key: 'server_error',
    },
  };
}

export function installEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((err, req, reply: FastifyReply) => {
    const { status, body } = envelopeFor(err, req);
    void reply.status(status).send(body);
  });
  app.setNotFoundHandler((req, reply) => {
    void reply.status(404).send({
      success: false,
      code: CODES.notFound,
      msg: errorText('not_found', requestLang(req)),
      key: 'not_found',
    });
  });
}
