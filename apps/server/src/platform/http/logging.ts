import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters and body fields whose values never reach a log line. */
export const SECRET_FIELDS = ['authorization', 'password', 'oldpassword', 'token', 'vt', 'session'] as const;

const SECRET_PARAM = new RegExp(`([?&](?:${SECRET_FIELDS.join('|')})=)[^&#\\s"']*`, 'gi');
const REDACTED = '[redacted]';

/** `/res/image.html?id=1&authorization=abc` → `/res/image.html?id=1&authorization=[redacted]`. */
export const redactUrl = (url: string): string => url.replace(SECRET_PARAM, `$1${REDACTED}`);

/**
 * pino's redaction (fast-redact) for structured fields: the request's authorization header, and secret
 * fields of a body or query logged as an object (top level or one level down).
 */
const REDACT_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  ...SECRET_FIELDS.flatMap((f) => [
    f,
    `*.${f}`,
    `body.${f}`,
    `query.${f}`,
    `req.body.${f}`,
    `req.query.${f}`,
  ]),
];

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/**
 * The server's logger: request lines carry the URL with secret parameters masked, structured secrets are
 * redacted, and any string logged that contains a URL with a secret parameter is masked too.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): LoggerOptions {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    hooks: {
      logMethod(args, method) {
        for (let i = 0; i < args.length; i++) {
          const a: unknown = args[i];
          if (typeof a === 'string' && a.includes('=')) args[i] = redactUrl(a);
        }
        method.apply(this, args);
      },
    },
  };
}
