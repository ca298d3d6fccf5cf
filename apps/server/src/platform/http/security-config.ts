import { BlockList, isIP } from 'node:net';
import { UPLOAD_QUOTA_DEFAULTS } from '@kefu/protocol';

/** `false`: the socket's peer is the client. A number: that many proxies in front. A list: trusted proxies. */
export type TrustProxy = false | number | readonly string[];

export interface UploadQuota {
  windowMs: number;
  visitorFiles: number;
  visitorBytes: number;
  ipFiles: number;
  ipBytes: number;
  tenantBytes: number;
}

/** The settings of docs/operations.md "Security": proxies, CORS, framing, media origin, upload quotas. */
export interface SecurityConfig {
  trustProxy: TrustProxy;
  /** Origins answered by CORS besides the domains of the website access points. */
  corsOrigins: readonly string[];
  /** CSP frame-ancestors of the console (and the API); the visitor pages may be framed by any site. */
  frameAncestors: readonly string[];
  /** `https://media.example.com`: /res/* is served only there (other hosts redirect to it). */
  mediaOrigin?: string;
  uploadQuota: UploadQuota;
}

/** Names proxy-addr also knows, so operators can write `loopback` instead of two CIDRs. */
const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const list = (v: string | undefined): string[] => (v ?? '').split(/[\s,]+/).filter(Boolean);

function fail(name: string, value: string, why: string): never {
  throw new Error(`${name}=${JSON.stringify(value)}: ${why}`);
}

function parseTrustProxy(raw: string | undefined): TrustProxy {
  const v = (raw ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (/^\d+$/.test(v)) return Number(v);
  const out: string[] = [];
  for (const item of list(v)) {
    if (NAMED[item]) out.push(...NAMED[item]);
    else if (isIP(item.split('/')[0] ?? '')) out.push(item);
    else
      fail(
        'KEFU_TRUST_PROXY',
        v,
        'expected a hop count or addresses/CIDRs (or loopback, linklocal, uniquelocal)',
      );
  }
  toBlockList(out); // throws on a bad prefix length
  return out;
}

function toBlockList(entries: readonly string[]): BlockList {
  const b = new BlockList();
  for (const e of entries) {
    const [addr = '', bits] = e.split('/');
    const family = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) b.addAddress(addr, family);
    else {
      const n = Number(bits);
      if (!/^\d+$/.test(bits) || n > (family === 'ipv6' ? 128 : 32))
        fail('KEFU_TRUST_PROXY', e, 'bad prefix length');
      b.addSubnet(addr, n, family);
    }
  }
  return b;
}

function origin(name: string, value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    fail(name, value, 'expected an origin such as https://shop.example.com');
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.pathname !== '/' || u.search || u.hash)
    fail(name, value, 'expected an http(s) origin without a path');
  return u.origin;
}

function frameSource(value: string): string {
  const v = value.replace(/^'(.*)'$/, '$1');
  if (v === 'self' || v === 'none') return `'${v}'`;
  if (/^(https?:\/\/)?(\*\.)?[A-Za-z0-9.-]+(:(\d{1,5}|\*))?$/.test(v) || /^https?:$/.test(v)) return v;
  return fail('KEFU_FRAME_ANCESTORS', value, "expected 'self', 'none', origins or host sources");
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, unit = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) fail(name, raw, 'expected a positive whole number');
  return Number(raw) * unit;
}

const MB = 1024 * 1024;

export function loadSecurityConfig(env: NodeJS.ProcessEnv): SecurityConfig {
  const d = UPLOAD_QUOTA_DEFAULTS;
  const frames = list(env.KEFU_FRAME_ANCESTORS).map(frameSource);
  return {
    trustProxy: parseTrustProxy(env.KEFU_TRUST_PROXY),
    corsOrigins: list(env.KEFU_CORS_ORIGINS).map((o) => origin('KEFU_CORS_ORIGINS', o)),
    frameAncestors: frames.length ? frames : ["'self'"],
    mediaOrigin: env.KEFU_MEDIA_ORIGIN ? origin('KEFU_MEDIA_ORIGIN', env.KEFU_MEDIA_ORIGIN) : undefined,
    uploadQuota: {
      windowMs: positive(env, 'KEFU_UPLOAD_WINDOW_MINUTES', d.windowMs, 60_000),
      visitorFiles: positive(env, 'KEFU_VISITOR_UPLOAD_FILES', d.visitorFiles),
      visitorBytes: positive(env, 'KEFU_VISITOR_UPLOAD_MB', d.visitorBytes, MB),
      ipFiles: positive(env, 'KEFU_IP_UPLOAD_FILES', d.ipFiles),
      ipBytes: positive(env, 'KEFU_IP_UPLOAD_MB', d.ipBytes, MB),
      tenantBytes: positive(env, 'KEFU_TENANT_STORAGE_MB', d.tenantBytes, MB),
    },
  };
}

/**
 * Whether the hop at `address` (0 = the socket's peer) is a proxy whose X-Forwarded-For may be believed.
 * Fastify takes this function as its trustProxy; socket handshakes use clientAddress() with it.
 */
export function proxyTrust(t: TrustProxy): false | ((address: string, hop: number) => boolean) {
  if (t === false) return false;
  if (typeof t === 'number') return (_address, hop) => hop < t;
  const b = toBlockList(t);
  return (address) => {
    const family = isIP(address);
    return family !== 0 && b.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The client's address as proxy-addr finds it: walk X-Forwarded-For from the right while hops are trusted. */
export function clientAddress(
  peer: string,
  forwardedFor: string | string[] | undefined,
  trust: false | ((address: string, hop: number) => boolean),
): string {
  if (!trust || !forwardedFor) return peer;
  const chain = [
    peer,
    ...list(Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).reverse(),
  ];
  let i = 0;
  while (i < chain.length - 1 && trust(chain[i]!, i)) i++;
  return chain[i]!;
}
