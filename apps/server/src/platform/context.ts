import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Db } from './db/database.js';
import type { Scheduler } from './jobs/scheduler.js';

/** What every module receives: configuration and the database. Realtime parts are added by their issue. */
export interface AppContext {
  config: AppConfig;
  db: Db;
  /** Clock and timers of the conversation engine; tests pass a ManualScheduler. */
  scheduler?: Scheduler;
}

/** A domain module registers its routes (and later its socket handlers) here. */
export type ModuleRegistrar = (app: FastifyInstance, ctx: AppContext) => void | Promise<void>;
