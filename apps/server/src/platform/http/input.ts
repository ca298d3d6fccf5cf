import type { FastifyRequest } from 'fastify';

/**
 * Query and body merged (body wins). Several calls of the contract accept GET or POST with the same
 * fields (e.g. delete), and form-encoded posts carry their fields in the body.
 */
export function input(req: FastifyRequest): Record<string, unknown> {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const b = bodyOf(req);
  const merged: Record<string, unknown> = { ...q, ...b };
  // The download token is transport, never a field.
  delete merged.authorization;
  return merged;
}

/** The body's fields only (JSON or form), for inputs that must never come from the URL (passwords). */
export function bodyOf(req: FastifyRequest): Record<string, unknown> {
  return req.body && typeof req.body === 'object' && !Array.isArray(req.body)
    ? (req.body as Record<string, unknown>)
    : {};
}
