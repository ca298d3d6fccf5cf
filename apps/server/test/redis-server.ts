import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';

/**
 * A private redis-server on a free loopback port, which a test may stop and start again on the same port
 * (the shared dev Redis must never be stopped). Needs `redis-server` on the PATH.
 */
export interface OwnRedis {
  url: string;
  port: number;
  start(): Promise<void>;
  /** SIGKILL, as a crash or a network cut looks to its clients; resolves once the process is gone. */
  stop(): Promise<void>;
}

/** Whether `setpriv --pdeathsig` can start the server (it execs redis-server: same pid, same stop). */
const PDEATHSIG = process.platform === 'linux' && existsSync('/usr/bin/setpriv');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves when the server answers PING (or rejects after `ms`). */
async function answers(port: number, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = createConnection({ port, host: '127.0.0.1' });
      c.once('error', () => resolve(false));
      c.once('data', (d) => {
        c.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
      c.once('connect', () => c.write('PING\r\n'));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`redis on ${port} did not start`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function ownRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let proc: ChildProcess | null = null;
  const r: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
      // Through setpriv (util-linux) the server dies with the test process, even one that is killed.
      proc = PDEATHSIG
        ? spawn('setpriv', ['--pdeathsig', 'SIGKILL', 'redis-server', ...args], { stdio: 'ignore' })
        : spawn('redis-server', args, { stdio: 'ignore' });
      await answers(port);
    },
    async stop() {
      const p = proc;
      proc = null;
      if (!p || p.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        p.once('exit', () => resolve());
        p.kill('SIGKILL');
      });
    },
  };
  await r.start();
  return r;
}
