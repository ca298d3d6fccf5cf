import type { Db } from '../../platform/db/database.js';

/** How long the set is reused; a change on this node drops it at once, other nodes see it within this. */
const TTL_MS = 5_000;

interface Cached {
  set: ReadonlySet<string>;
  until: number;
  loading?: Promise<ReadonlySet<string>>;
}

const caches = new WeakMap<Db, Cached>();

/**
 * The browser origins a website access point's domain stands for: `https://shop.example.com/help` is
 * https://shop.example.com; a domain without a scheme (`www.example.com:8080`) is that host over http and
 * over https. Empty or unparsable domains stand for nothing.
 */
export function originsOfDomain(domain: string): string[] {
  const d = domain.trim();
  if (!d) return [];
  const scheme = /^https?:\/\//i.test(d);
  try {
    const u = new URL(scheme ? d : `http://${d}`);
    if (scheme) return [u.origin];
    return [u.origin, `https://${u.host}`];
  } catch {
    return [];
  }
}

async function load(db: Db): Promise<ReadonlySet<string>> {
  const rows = await db.kysely.selectFrom('access_point').select('domain').execute();
  return new Set(rows.flatMap((r) => originsOfDomain(r.domain)));
}

/** The origins of every access point, cached per database handle (the CORS check asks on each request). */
export function accessPointOrigins(db: Db): () => ReadonlySet<string> | Promise<ReadonlySet<string>> {
  return () => {
    const c = caches.get(db);
    const now = Date.now();
    if (c && c.until > now) return c.set;
    if (c?.loading) return c.loading;
    const loading = load(db).then(
      (set) => {
        caches.set(db, { set, until: Date.now() + TTL_MS });
        return set;
      },
      (err: unknown) => {
        caches.delete(db);
        throw err;
      },
    );
    caches.set(db, { set: c?.set ?? new Set(), until: 0, loading });
    return loading;
  };
}

/** After an access point is saved, changed or removed: the next CORS check reads the table again. */
export const forgetAccessOrigins = (db: Db): void => {
  caches.delete(db);
};
