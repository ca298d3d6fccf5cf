import type { FastifyInstance } from 'fastify';
import { CODES, errorText } from '@kefu/protocol';
import { requestLang } from './envelope.js';

const isMedia = (url: string): boolean => url.startsWith('/res/');

/**
 * KEFU_MEDIA_ORIGIN: user media are served only from their own origin, so even a file a browser got to
 * render could reach neither the console's storage nor its API. /res/* asked on any other host is
 * redirected there (clients keep same-site URLs); anything else asked on the media host is not found.
 * Installed before the /api guard, so the media host answers nothing but media.
 */
export function installMediaOrigin(app: FastifyInstance, mediaOrigin: string): void {
  const mediaHost = new URL(mediaOrigin).host;
  app.addHook('onRequest', (req, reply, done) => {
    const onMediaHost = req.host === mediaHost;
    if (isMedia(req.url) === onMediaHost) return done();
    if (!onMediaHost) {
      void reply.redirect(`${mediaOrigin}${req.url}`, 307);
      return;
    }
    void reply.status(404).send({
      success: false,
      code: CODES.notFound,
      msg: errorText('not_found', requestLang(req)),
      key: 'not_found',
    });
  });
}
