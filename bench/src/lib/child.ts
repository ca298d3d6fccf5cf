import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';

/** Repository root: every child runs from here so `tsx` and workspace packages resolve. */
export const ROOT = resolve(import.meta.dirname, '../../..');
const TASKSET = existsSync('/usr/bin/taskset') ? '/usr/bin/taskset' : undefined;

/** CPU pinning (design §5): servers on core 0, load generators on core 1, when the box has 2+ cores. */
export type Core = 0 | 1 | 'any';

export interface Child {
  proc: ChildProcess;
  pid: number;
  /** Last lines of stderr/stdout, for error messages. */
  tail(): string;
  /** Request/response over the IPC channel. */
  call<T>(msg: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

interface Reply {
  rid: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

const isReply = (m: unknown): m is Reply =>
  typeof m === 'object' && m !== null && typeof (m as { rid?: unknown }).rid === 'number';

/** Spawns `node --import tsx [flags] <script>` with an IPC channel, optionally pinned with taskset. */
export function spawnNode(
  script: string,
  opts: { env?: NodeJS.ProcessEnv; core?: Core; flags?: string[]; args?: string[] } = {},
): Child {
  const nodeArgs = ['--import', 'tsx', ...(opts.flags ?? []), script, ...(opts.args ?? [])];
  const pin = TASKSET && opts.core !== undefined && opts.core !== 'any';
  const [cmd, args] = pin
    ? [TASKSET as string, ['-c', String(opts.core), process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  const proc = spawn(cmd, args, {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const lines: string[] = [];
  const keep = (b: Buffer) => {
    for (const l of b.toString().split('\n')) if (l.trim()) lines.push(l);
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  let rid = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  proc.on('message', (m: unknown) => {
    if (!isReply(m)) return;
    const p = pending.get(m.rid);
    if (!p) return;
    pending.delete(m.rid);
    if (m.ok) p.resolve(m.result);
    else p.reject(new Error(m.error ?? 'child error'));
  });
  const exited = new Promise<void>((res) => proc.once('exit', () => res()));
  proc.once('exit', (code) => {
    for (const p of pending.values()) p.reject(new Error(`child exited (${code}): ${lines.join('\n')}`));
    pending.clear();
  });
  return {
    proc,
    pid: proc.pid ?? 0,
    tail: () => lines.join('\n'),
    call<T>(msg: Record<string, unknown>, timeoutMs = 120_000): Promise<T> {
      const id = ++rid;
      return new Promise<T>((res, rej) => {
        const t = setTimeout(() => {
          pending.delete(id);
          rej(new Error(`child call ${String(msg.cmd)} timed out\n${lines.join('\n')}`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (v) => {
            clearTimeout(t);
            res(v as T);
          },
          reject: (e) => {
            clearTimeout(t);
            rej(e);
          },
        });
        proc.send({ ...msg, rid: id });
      });
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** Child side: answers `call`s with `handle`. */
export function serve(handle: (msg: Record<string, unknown>) => Promise<unknown>): void {
  process.on('message', (m: unknown) => {
    if (!isReply(m)) return;
    const msg = m as unknown as Record<string, unknown> & { rid: number };
    handle(msg).then(
      (result) => process.send?.({ rid: msg.rid, ok: true, result }),
      (err: unknown) =>
        process.send?.({ rid: msg.rid, ok: false, error: err instanceof Error ? err.stack : String(err) }),
    );
  });
}

/** Waits until a TCP port accepts connections (the server under test is listening). */
export async function waitForPort(port: number, child: Child, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (child.proc.exitCode !== null || child.proc.signalCode !== null) {
      await new Promise((r) => setTimeout(r, 200)); // let its last output arrive
      throw new Error(
        `server exited early (${child.proc.exitCode ?? child.proc.signalCode}):\n${child.tail()}`,
      );
    }
    const ok = await new Promise<boolean>((res) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        res(true);
      });
      s.once('error', () => res(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`port ${port} not listening in time:\n${child.tail()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A port the OS just handed out (bound to port 0, then released), so it collides with nothing in use. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as AddressInfo).port;
      srv.close(() => res(port));
    });
  });
}
