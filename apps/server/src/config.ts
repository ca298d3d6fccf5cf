import { resolve } from 'node:path';
import { loadSecurityConfig, type SecurityConfig } from './platform/http/security-config.js';
import { apiBases, type ApiBases } from './modules/channels/api-bases.js';

export type SeedLanguage = 'zh' | 'en';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… selects PostgreSQL; otherwise SQLite under dataDir. */
  databaseUrl?: string;
  redisUrl?: string;
  adminPassword?: string;
  /** Token lifetime; tokens are also revoked by logout and password change. */
  tokenTtlMs: number;
  /** Login attempts per IP+username per minute before refusal. */
  loginRateLimit: number;
  /** KEFU_SELF_REGISTER: companies may register a tenant of their own at /register (off by default). */
  selfRegister: boolean;
  /** Registrations per IP per hour (KEFU_REGISTER_RATE_LIMIT). */
  registerRateLimit: number;
  orgi: string;
  /** KEFU_LANGUAGE: the language of the names a first start seeds (department, roles, demo site); zh by default. */
  language: SeedLanguage;
  logLevel: string;
  /** KEFU_LOG_FORMAT: `pretty` lines for people, `json` for collectors; `auto` = pretty on a terminal. */
  logFormat: 'pretty' | 'json' | 'auto';
  /** Proxies, CORS, framing, media origin, upload quotas (KEFU_TRUST_PROXY and friends). */
  security: SecurityConfig;
  /** Messaging platforms' API hosts (WECHAT_API_BASE, WECOM_API_BASE, DOUYIN_API_BASE, BAIDU_API_BASE). */
  channelBases?: ApiBases;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolve(env.KEFU_DATA_DIR ?? './data');
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL?.startsWith('postgres') ? env.DATABASE_URL : undefined,
    redisUrl: env.REDIS_URL || undefined,
    adminPassword: env.KEFU_ADMIN_PASSWORD || undefined,
    tokenTtlMs: Number(env.KEFU_TOKEN_TTL_HOURS ?? 24 * 7) * 3_600_000,
    loginRateLimit: Number(env.KEFU_LOGIN_RATE_LIMIT ?? 10),
    selfRegister: ['1', 'true', 'on', 'yes'].includes((env.KEFU_SELF_REGISTER ?? '').toLowerCase()),
    registerRateLimit: Number(env.KEFU_REGISTER_RATE_LIMIT ?? 5),
    orgi: env.KEFU_ORGI ?? 'kefu',
    language: env.KEFU_LANGUAGE === 'en' ? 'en' : 'zh',
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat:
      env.KEFU_LOG_FORMAT === 'pretty' || env.KEFU_LOG_FORMAT === 'json' ? env.KEFU_LOG_FORMAT : 'auto',
    security: loadSecurityConfig(env),
    channelBases: apiBases(env),
  };
}
