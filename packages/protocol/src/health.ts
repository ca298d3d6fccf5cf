/** Probes for process managers and load balancers (docs/operations.md). Outside /api: no token needed. */
export const HEALTH_LIVE_PATH = '/health/live';
export const HEALTH_READY_PATH = '/health/ready';

/** `off`: not configured (Redis without REDIS_URL). */
export type HealthCheckState = 'ok' | 'down' | 'off';

/** Live answers 200 with this while the process can answer at all (restart it when it cannot). */
export interface HealthLive {
  status: 'ok';
}

/**
 * Ready answers 200 only when the database (and Redis, when configured) is reachable and the server is not
 * shutting down; otherwise 503 with the same body saying what is wrong.
 */
export interface HealthReport {
  status: 'ok' | 'draining' | 'unavailable';
  database: HealthCheckState;
  redis: HealthCheckState;
}
