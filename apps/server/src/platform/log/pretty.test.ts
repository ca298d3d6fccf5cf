import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatLine, prettyStream } from './pretty.js';

const at = new Date(2026, 0, 2, 3, 4, 5, 67).getTime();

describe('human-readable log lines', () => {
  it('shows time, level, message, the request and other fields; an error with its stack', () => {
    const line = JSON.stringify({
      level: 20,
      time: at,
      pid: 1,
      hostname: 'h',
      reqId: 'req-1',
      req: { method: 'GET', url: '/api/x?y=1' },
      res: { statusCode: 200 },
      responseTime: 1.234,
      msg: 'request completed',
    });
    expect(formatLine(line, false)).toBe(
      '03:04:05.067  DEBUG  request completed  GET /api/x?y=1  200  1.2 ms\n',
    );
    const err = JSON.stringify({
      level: 50,
      time: at,
      msg: 'boom',
      port: 8080,
      note: 'two words',
      err: { type: 'Error', message: 'bad', stack: 'Error: bad\n    at f (x.ts:1:1)' },
    });
    expect(formatLine(err, false)).toBe(
      '03:04:05.067  ERROR  boom  port=8080  note="two words"\nError: bad\n    at f (x.ts:1:1)\n',
    );
    expect(formatLine(err, true)).toContain('\x1b[31mERROR\x1b[0m');
  });

  it('passes anything that is not a JSON record through', () => {
    expect(formatLine('plain text', false)).toBe('plain text\n');
  });

  it('is a stream pino can write to', () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    prettyStream(out, false).write(`${JSON.stringify({ level: 30, time: at, msg: 'hi' })}\n`);
    expect(chunks.join('')).toBe('03:04:05.067  INFO   hi\n');
  });
});
