import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildServer, SERVER_ENTRY } from '../../scripts/build-server.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
export const ADMIN_PASSWORD = 'E2e#Admin2026';

/** Builds the console when its dist is missing (a run of the e2e suite on its own). */
export function ensureConsoleBuilt(): void {
  if (!existsSync(join(ROOT, 'apps/console/dist/index.html'))) {
    execFileSync('npm', ['run', 'build', '-w', 'apps/console'], { cwd: ROOT, stdio: 'inherit' });
  }
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

/**
 * Starts the real server as `npm start` runs it (the compiled apps/server/dist/main.mjs under plain node,
 * built first when a source is newer) on a free port with its own data dir.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  await buildServer({ quiet: true });
  const port = await freePort();
  const dataDir = env.KEFU_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'kefu-e2e-'));
  let out = '';
  const child: ChildProcess = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      KEFU_DATA_DIR: dataDir,
      KEFU_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const r = await fetch(`${url}/tokens/info`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    dataDir,
    output: () => out,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      if (!env.KEFU_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
