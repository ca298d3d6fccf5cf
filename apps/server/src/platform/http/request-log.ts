import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One line per answered request, at debug: at the default level (info) a busy console wrote thousands of
 * lines an hour that nobody reads (LOG_LEVEL=debug brings them back). Fastify's two lines per request at
 * info become this one; failed requests are still logged at error. The URL goes through the logger's `req`
 * serializer, which masks secrets (logging.ts).
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) super.requestCompleted(error, request, reply);
    else reply.log.debug({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
