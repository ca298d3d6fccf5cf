import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import { closeRedis } from '../redis.js';
import type { Database } from '../db/schema.js';

/** Redis channel on which a node announces that a tenant setting changed (payload: Change as JSON). */
export const SETTINGS_CHANNEL = 'kefu:settings:changed';

export interface Change {
  orgi: string;
  name: string;
  version: number;
}

/** A change, or null: anything may have changed (this node's subscription was down). */
type Listener = (c: Change | null) => void;
type Kdb = Kysely<Database> | Transaction<Database>;

export interface Stored<T> {
  value: T;
  version: number;
}

/**
 * Per-tenant setting documents (org_setting: JSON value + version) and their cache on this node. Every
 * change bumps the row's version in the writer's transaction; after the commit the writing node drops its
 * copy and tells the others over Redis, which drop theirs (a node whose subscription was down drops
 * everything when it comes back). Readers on the hot path keep what they built from a setting (a
 * sensitive-word automaton, a security policy) and rebuild it only when told of a newer version.
 */
export class OrgSettings {
  private readonly cache = new Map<string, Stored<unknown>>();
  private readonly listeners = new Set<Listener>();
  private gen = 0;
  /** Publishers to other nodes (one per app built on this handle with a Redis URL). */
  readonly publishers = new Set<(c: Change) => void>();

  constructor(private readonly db: Db) {}

  /** The stored document (parsed by `read`, which also supplies defaults) and its version. */
  async get<T>(orgi: string, name: string, read: (raw: unknown) => T): Promise<Stored<T>> {
    const key = `${orgi}\n${name}`;
    const hit = this.cache.get(key) as Stored<T> | undefined;
    if (hit) return hit;
    const gen = this.gen;
    const row = await this.db.kysely
      .selectFrom('org_setting')
      .select(['value', 'version'])
      .where('orgi', '=', orgi)
      .where('name', '=', name)
      .executeTakeFirst();
    const stored = {
      value: read(row ? (JSON.parse(row.value) as unknown) : undefined),
      version: row?.version ?? 0,
    };
    // A change announced while this read ran may not be in what it read: then do not keep it.
    if (gen === this.gen) this.cache.set(key, stored);
    return stored;
  }

  /** Writes a document (bumping its version) inside `trx`; call `changed` with the result after the commit. */
  async write(trx: Kdb, orgi: string, name: string, value: unknown, now = Date.now()): Promise<Change> {
    const json = JSON.stringify(value ?? null);
    const row = await trx
      .insertInto('org_setting')
      .values({ orgi, name, value: json, version: 1, updatetime: now })
      .onConflict((oc) =>
        oc.columns(['orgi', 'name']).doUpdateSet((eb) => ({
          value: json,
          version: eb('org_setting.version', '+', 1),
          updatetime: now,
        })),
      )
      .returning('version')
      .executeTakeFirstOrThrow();
    return { orgi, name, version: Number(row.version) };
  }

  /** Bumps a setting's version without changing its value (the data it stands for lives elsewhere). */
  async bump(trx: Kdb, orgi: string, name: string, now = Date.now()): Promise<Change> {
    const row = await trx
      .insertInto('org_setting')
      .values({ orgi, name, value: 'null', version: 1, updatetime: now })
      .onConflict((oc) =>
        oc
          .columns(['orgi', 'name'])
          .doUpdateSet((eb) => ({ version: eb('org_setting.version', '+', 1), updatetime: now })),
      )
      .returning('version')
      .executeTakeFirstOrThrow();
    return { orgi, name, version: Number(row.version) };
  }

  /** Writes and announces in one go (its own transaction). */
  async save(orgi: string, name: string, value: unknown): Promise<void> {
    this.changed(await this.write(this.db.kysely, orgi, name, value));
  }

  /** After the commit: drop here, tell listeners and the other nodes. */
  changed(c: Change): void {
    this.apply(c);
    for (const publish of this.publishers) publish(c);
  }

  /** A change seen on this node only (own or announced by another node). */
  apply(c: Change): void {
    this.gen++;
    this.cache.delete(`${c.orgi}\n${c.name}`);
    for (const l of this.listeners) l(c);
  }

  /** Everything may be stale (the subscription was down): drop it all. */
  dropAll(): void {
    this.gen++;
    this.cache.clear();
    for (const l of this.listeners) l(null);
  }

  onChange(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}

const instances = new WeakMap<Db, OrgSettings>();

/** The settings cache of a database handle (two apps on separate handles behave as two nodes). */
export function orgSettings(db: Db): OrgSettings {
  let s = instances.get(db);
  if (!s) instances.set(db, (s = new OrgSettings(db)));
  return s;
}

function parseChange(raw: string): { from: string; c: Change } | undefined {
  try {
    const v = JSON.parse(raw) as { from?: unknown; c?: Partial<Change> };
    const c = v.c;
    if (typeof v.from !== 'string' || !c) return undefined;
    if (typeof c.orgi !== 'string' || typeof c.name !== 'string' || typeof c.version !== 'number')
      return undefined;
    return { from: v.from, c: { orgi: c.orgi, name: c.name, version: c.version } };
  } catch {
    return undefined;
  }
}

/** Cross-node change announcements over Redis pub/sub. `ready` settles once subscribed (or failed). */
export function connectSettingsBus(
  db: Db,
  redisUrl: string,
): { ready: Promise<void>; close(): Promise<void> } {
  const settings = orgSettings(db);
  const node = randomUUID();
  const pub = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: null });
  const sub = pub.duplicate();
  pub.on('error', () => undefined);
  sub.on('error', () => undefined);
  sub.on('ready', () => settings.dropAll());
  const ready = sub.subscribe(SETTINGS_CHANNEL).then(
    () => undefined,
    () => undefined,
  );
  sub.on('message', (channel: string, raw: string) => {
    if (channel !== SETTINGS_CHANNEL) return;
    const m = parseChange(raw);
    if (m && m.from !== node) settings.apply(m.c);
  });
  const publish = (c: Change) => {
    void pub.publish(SETTINGS_CHANNEL, JSON.stringify({ from: node, c })).catch(() => undefined);
  };
  settings.publishers.add(publish);
  return {
    ready,
    async close() {
      settings.publishers.delete(publish);
      await Promise.all([pub, sub].map(closeRedis));
    },
  };
}

const installed = new WeakSet<FastifyInstance>();

/**
 * Connects this app's settings cache to the other nodes when the multi-node shape is on (REDIS_URL).
 * Every module that reads org settings calls it; the first call per app does the work.
 */
export function installSettingsBus(app: FastifyInstance, db: Db, redisUrl: string | undefined): void {
  if (!redisUrl || installed.has(app)) return;
  installed.add(app);
  const link = connectSettingsBus(db, redisUrl);
  app.addHook('onReady', async () => {
    // Do not hold start-up hostage to Redis; until subscribed, changes made elsewhere are not seen.
    await Promise.race([link.ready, new Promise((r) => setTimeout(r, 3_000).unref())]);
  });
  app.addHook('onClose', async () => link.close());
}
