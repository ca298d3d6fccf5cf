import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** The origins allowed besides the configured ones (the website access points' domains), cached by the source. */
export type OriginSource = () => ReadonlySet<string> | Promise<ReadonlySet<string>>;

type Callback = (err: Error | null, allow: boolean) => void;
export type OriginCheck = (origin: string | undefined, cb: Callback) => void;

const checks = new WeakMap<FastifyInstance, OriginCheck>();

/**
 * Whether a cross-origin caller may read kefu's answers: only origins configured (KEFU_CORS_ORIGINS) or
 * named by a website access point. Never `null` (sandboxed frames, file: pages) and never "any": the
 * answers of an origin not allowed carry no Access-Control-Allow-Origin, so its browser keeps them from it.
 */
export function originCheck(configured: readonly string[], fromAccessPoints: OriginSource): OriginCheck {
  const fixed = new Set(configured);
  return (origin, cb) => {
    if (!origin || origin === 'null') return cb(null, false);
    if (fixed.has(origin)) return cb(null, true);
    const known = fromAccessPoints();
    if (known instanceof Set) return cb(null, known.has(origin));
    Promise.resolve(known).then(
      (set) => cb(null, set.has(origin)),
      (err: unknown) => cb(err instanceof Error ? err : new Error(String(err)), false),
    );
  };
}

/** CORS for the HTTP routes; socket.io's polling transport asks the same check (corsCheckOf). */
export async function installCors(app: FastifyInstance, check: OriginCheck): Promise<void> {
  checks.set(app, check);
  await app.register(cors, { origin: check, credentials: false });
}

/** The app's origin check, for socket.io (which runs beside Fastify, not through its hooks). */
export const corsCheckOf = (app: FastifyInstance): OriginCheck =>
  checks.get(app) ?? ((_origin, cb) => cb(null, false));
