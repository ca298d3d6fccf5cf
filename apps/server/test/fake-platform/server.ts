import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/**
 * A local stand-in for the messaging platforms (WeCom/KF, official account and mini-program, Douyin,
 * Baidu): a real HTTP server on loopback with its own clock (POST /__fake/clock), fault injection
 * (POST /__fake/inject) and a log of what it received. Each platform lives under a path prefix, which is
 * the base URL the app is given: `${url}/wecom`, `${url}/wechat`, `${url}/douyin`, `${url}/baidu`.
 */
export interface Fault {
  /** Matched against the end of the request path (e.g. `kf/send_msg`). */
  path: string;
  errcode?: number;
  /** An HTTP status (5xx) instead of an errcode. */
  status?: number;
  /** Answer after this many ms (the call itself then proceeds). */
  delayMs?: number;
  /** Answer with JSON cut in half. */
  truncate?: boolean;
  /** How many calls it applies to. */
  times: number;
  /** Matching calls to let through before it applies (a failure on the second page). */
  after?: number;
}

export interface Call {
  platform: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | null;
  at: number;
}

export type Handler = (req: FakeRequest) => Promise<FakeAnswer> | FakeAnswer;
export interface FakeRequest {
  path: string;
  query: Record<string, string>;
  json: Record<string, unknown> | null;
  raw: Buffer;
  headers: IncomingMessage['headers'];
  method: string;
}
export type FakeAnswer = { json: unknown } | { status: number; body: Buffer | string; type?: string };

export class FakeServer {
  url = '';
  private server: Server | null = null;
  /** Seconds added to the wall clock (POST /__fake/clock {advance}). */
  private offset = 0;
  private faults: Fault[] = [];
  readonly calls: Call[] = [];
  private readonly routes = new Map<string, Handler>();

  /** The fake's time, in ms. */
  now(): number {
    return Date.now() + this.offset * 1000;
  }
  advance(seconds: number): void {
    this.offset += seconds;
  }
  inject(f: Fault): void {
    this.faults.push({ ...f });
  }
  route(platform: string, path: string, h: Handler): void {
    this.routes.set(`${platform}${path}`, h);
  }
  /** Calls received on a path (suffix match), oldest first. */
  callsTo(path: string): Call[] {
    return this.calls.filter((c) => c.path.endsWith(path));
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const u = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(u.searchParams);
    const [, platform = '', ...rest] = u.pathname.split('/');
    const path = `/${rest.join('/')}`;
    if (platform === '__fake') return this.control(path, raw, res);
    let json: Record<string, unknown> | null = null;
    const type = req.headers['content-type'] ?? '';
    if (type.includes('json') && raw.length)
      json = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    else if (type.includes('x-www-form-urlencoded'))
      json = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    this.calls.push({ platform, path, query, body: json, at: this.now() });
    const fault = this.faults.find(
      (f) => f.times > 0 && path.endsWith(f.path) && !(f.after && f.after-- > 0),
    );
    if (fault) {
      fault.times--;
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault.status) return send(res, fault.status, `fault ${fault.status}`, 'text/plain');
      if (fault.truncate) return send(res, 200, '{"errcode":0,"errmsg":"o', 'application/json');
      if (fault.errcode !== undefined)
        return send(
          res,
          200,
          JSON.stringify({ errcode: fault.errcode, errmsg: `injected ${fault.errcode}` }),
          'application/json',
        );
    }
    const h = this.routes.get(`${platform}${path}`);
    if (!h)
      return send(
        res,
        404,
        JSON.stringify({ errcode: 404, errmsg: 'no such fake endpoint' }),
        'application/json',
      );
    const a = await h({ path, query, json, raw, headers: req.headers, method: req.method ?? 'GET' });
    if ('json' in a) return send(res, 200, JSON.stringify(a.json), 'application/json');
    return send(res, a.status, a.body, a.type ?? 'application/octet-stream');
  }

  /** Control calls: the clock, faults, the call log. */
  private control(path: string, raw: Buffer, res: ServerResponse): void {
    const body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
    if (path === '/clock') {
      this.advance(Number(body.advance ?? 0));
      return send(res, 200, JSON.stringify({ now: this.now() }), 'application/json');
    }
    if (path === '/inject') {
      this.inject(body as unknown as Fault);
      return send(res, 200, '{}', 'application/json');
    }
    if (path === '/calls') return send(res, 200, JSON.stringify(this.calls), 'application/json');
    send(res, 404, '', 'text/plain');
  }
}

function send(res: ServerResponse, status: number, body: Buffer | string, type: string): void {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.end(body);
}

export const fakeId = (prefix: string): string => `${prefix}${randomBytes(12).toString('hex')}`;
