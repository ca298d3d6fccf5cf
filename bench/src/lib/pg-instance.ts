import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './child.js';

export interface PgInstance {
  /** Admin URL (user postgres, database postgres), as TEST_PG_URL. */
  url: string;
  stop(): void;
}

/** The newest installed PostgreSQL's bin directory (Debian layout), or undefined. */
export function pgBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin/initdb')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? join(base, versions[versions.length - 1], 'bin') : undefined;
}

/**
 * A throwaway PostgreSQL on loopback with the durability settings users run: fsync, synchronous_commit and
 * full_page_writes on (the test services run with all three off). Each commit waits for its WAL flush.
 */
export async function startDurablePostgres(): Promise<PgInstance> {
  const bin = pgBin();
  if (!bin) throw new Error('PostgreSQL is not installed (/usr/lib/postgresql/*/bin)');
  const dir = mkdtempSync(join(tmpdir(), 'kefu-bench-pg-'));
  chmodSync(dir, 0o755);
  const root = process.getuid?.() === 0;
  // initdb refuses to run as root: the postgres system user of the Debian package runs it.
  const as = (cmd: string, args: string[]) =>
    (root ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]) as [string, string[]];
  if (root) execFileSync('chown', ['postgres:postgres', dir]);
  const data = join(dir, 'data');
  const port = await freePort();
  execFileSync(
    ...as(join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]),
    {
      stdio: 'ignore',
    },
  );
  const opts = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-k ${dir}`,
    '-c fsync=on',
    '-c synchronous_commit=on',
    '-c full_page_writes=on',
    '-c max_connections=300',
  ].join(' ');
  execFileSync(
    ...as(join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(dir, 'pg.log'),
      '-w',
      '-t',
      '30',
      '-o',
      opts,
      'start',
    ]),
    {
      stdio: 'ignore',
    },
  );
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      spawnSync(...as(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']), { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
