import { Writable } from 'node:stream';

/**
 * Log lines for a person at a terminal: `12:04:05.120 INFO  message  key=value`, colours by level, an
 * error's stack below its line. pino writes one JSON record per `write`; anything that is not JSON passes
 * through unchanged. Collectors get the JSON (KEFU_LOG_FORMAT=json, or stdout not a terminal).
 */
const LEVELS: Record<number, [string, string]> = {
  10: ['TRACE', '90'],
  20: ['DEBUG', '36'],
  30: ['INFO ', '32'],
  40: ['WARN ', '33'],
  50: ['ERROR', '31'],
  60: ['FATAL', '35'],
};
/** Fields every record carries or that the line shows in its own way. */
const SHOWN = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'req',
  'res',
  'responseTime',
  'err',
  'reqId',
]);

const hhmmss = (t: number): string => {
  const d = new Date(t);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
};

const value = (v: unknown): string => (typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v));

interface Rec {
  level?: number;
  time?: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { type?: string; message?: string; stack?: string };
  [k: string]: unknown;
}

export function formatLine(line: string, color: boolean): string {
  let r: Rec;
  try {
    r = JSON.parse(line) as Rec;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (typeof r !== 'object' || r === null) return `${line}\n`;
  const [name, code] = LEVELS[r.level ?? 30] ?? ['LOG  ', '0'];
  const paint = (c: string, s: string) => (color ? `\x1b[${c}m${s}\x1b[0m` : s);
  const parts = [paint('90', hhmmss(r.time ?? Date.now())), paint(code, name), r.msg ?? ''];
  if (r.req?.method) parts.push(`${r.req.method} ${r.req.url ?? ''}`);
  if (r.res?.statusCode) parts.push(String(r.res.statusCode));
  if (typeof r.responseTime === 'number') parts.push(`${r.responseTime.toFixed(1)} ms`);
  for (const [k, v] of Object.entries(r))
    if (!SHOWN.has(k) && v !== undefined) parts.push(`${k}=${value(v)}`);
  let out = parts.filter((p) => p !== '').join('  ');
  if (r.err) out += `\n${r.err.stack ?? `${r.err.type ?? 'Error'}: ${r.err.message ?? ''}`}`;
  return `${out}\n`;
}

/** A destination for pino that writes formatted lines to `out`. */
export function prettyStream(
  out: NodeJS.WritableStream = process.stdout,
  color = Boolean((out as { isTTY?: boolean }).isTTY),
): Writable {
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      out.write(formatLine(String(chunk), color));
      done();
    },
  });
}
