import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Db } from './db/database.js';

/** What every module receives: configuration and the database. Realtime parts are added by their issue. */
export interface AppContext {
  config: AppConfig;
  db: Db;
}

/** A domain module registers its routes (and later its socket handlers) here. */
export type ModuleRegistrar = (app: FastifyInstance, ctx: AppContext) => void | Promise<void>;
