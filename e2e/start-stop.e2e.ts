import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HEALTH_READY_PATH } from '@kefu/protocol';
import { ADMIN_PASSWORD, freePort } from './support/server';

const ROOT = resolve(import.meta.dirname, '..');

/** Every process below `pid` (children, grandchildren…), from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the parent pid follows the last ')'.
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

const alive = (pid: number) =>
  existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');

async function serving(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Started {
  npm: ChildProcess;
  port: number;
  output: () => string;
  tree: number[];
}

const dirs: string[] = [];
const started: Started[] = [];
afterEach(() => {
  for (const s of started.splice(0))
    for (const p of [s.npm.pid!, ...s.tree]) if (alive(p)) process.kill(p, 'SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** `npm start` as a user runs it, on a free port with its own data directory (npm is a group leader, like a shell job). */
async function npmStart(): Promise<Started> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kefu-start-'));
  dirs.push(dataDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    KEFU_DATA_DIR: dataDir,
    KEFU_ADMIN_PASSWORD: ADMIN_PASSWORD,
    DATABASE_URL: '',
    REDIS_URL: '',
  };
  delete env.KEFU_LOG_FORMAT;
  delete env.LOG_LEVEL;
  const npm = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  npm.stdout?.on('data', (d) => (out += d));
  npm.stderr?.on('data', (d) => (out += d));
  const s: Started = { npm, port, output: () => out, tree: [] };
  started.push(s);
  await waitFor(
    async () => {
      if (npm.exitCode !== null) throw new Error(`npm start exited:\n${out}`);
      return (await serving(`http://127.0.0.1:${port}${HEALTH_READY_PATH}`)) && out.includes('Log in as');
    },
    150_000,
    'npm start to serve',
  );
  s.tree = descendants(npm.pid!);
  return s;
}

async function expectAllGone(s: Started): Promise<void> {
  await waitFor(() => ![s.npm.pid!, ...s.tree].some(alive), 20_000, 'npm start and its processes to end');
  expect(await serving(`http://127.0.0.1:${s.port}/health/live`)).toBe(false);
}

describe('npm start', () => {
  it('prints the console URL, the demo page and how to log in once, last, after the server listens', async () => {
    const s = await npmStart();
    const out = s.output();
    expect(out.match(/kefu is running\./g)).toHaveLength(1);
    expect(out).not.toContain('Server listening');
    const lines = out.trimEnd().split('\n');
    const listening = lines.findIndex((l) => l.includes('"msg":"server listening"'));
    expect(listening).toBeGreaterThanOrEqual(0);
    const tail = lines.slice(listening + 1).filter((l) => l.trim());
    expect(tail[0]).toBe('kefu is running.');
    expect(tail[1]).toContain(`Console:            http://localhost:${s.port}/`);
    expect(tail[2]).toContain(`Demo visitor page:  http://localhost:${s.port}/im/demo.html`);
    expect(tail[3]).toContain('Log in as "admin"');
    // Started with plain node: no TypeScript loader in the server process.
    const cmdlines = s.tree.map((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' '));
    const server = cmdlines.find((c) => c.includes('apps/server/dist/main.mjs'));
    expect(server).toBeDefined();
    expect(server).not.toContain('tsx');
    process.kill(s.npm.pid!, 'SIGTERM');
    await expectAllGone(s);
  });

  it('SIGTERM to npm stops the server and scripts/start.mjs', async () => {
    const s = await npmStart();
    expect(s.tree.length).toBeGreaterThanOrEqual(2); // start.mjs and the server at least
    process.kill(s.npm.pid!, 'SIGTERM');
    await expectAllGone(s);
    expect(s.output()).toContain('"msg":"stopped"');
  });

  it('Ctrl-C (SIGINT to the foreground process group) stops everything, the server gracefully', async () => {
    const s = await npmStart();
    process.kill(-s.npm.pid!, 'SIGINT');
    await expectAllGone(s);
    expect(s.output()).toContain('"msg":"stopped"');
  });
});
