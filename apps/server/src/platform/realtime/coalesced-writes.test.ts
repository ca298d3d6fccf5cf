import { createServer } from 'node:http';
import type { AddressInfo, Socket as NetSocket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { coalesceWebSocketBatches } from './coalesced-writes.js';

describe('coalesced WebSocket batches', () => {
  const http = createServer();
  const io = new Server(http, { serveClient: false });
  afterAll(() => new Promise<void>((r) => void io.close(() => r())));

  it('writes the packets queued for one socket with one system write, in order', async () => {
    expect(coalesceWebSocketBatches()).toBe(true);
    expect(coalesceWebSocketBatches()).toBe(true);
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const port = (http.address() as AddressInfo).port;
    const joined = new Promise<import('socket.io').Socket>((r) => io.on('connection', r));
    const client = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'], forceNew: true });
    const server = await joined;
    const raw = (server.conn.transport as unknown as { socket: { _socket: NetSocket } }).socket._socket;
    let writes = 0;
    const w = raw as unknown as {
      _writev: (...a: unknown[]) => unknown;
      _write: (...a: unknown[]) => unknown;
    };
    const writev = w._writev.bind(raw);
    const write = w._write.bind(raw);
    w._writev = (...a) => (writes++, writev(...a));
    w._write = (...a) => (writes++, write(...a));

    const got: number[] = [];
    const all = new Promise<void>((resolve) =>
      client.on('n', (i: number) => {
        got.push(i);
        if (got.length === 21) resolve();
      }),
    );
    // The first emit makes the transport busy until its write's callback; the next 20 queue up behind it.
    for (let i = 0; i < 21; i++) server.emit('n', i);
    await all;
    expect(got).toEqual(Array.from({ length: 21 }, (_, i) => i));
    // One write for the first frame, one for the 20 that waited (without the patch: 21).
    expect(writes).toBeLessThanOrEqual(3);
    client.disconnect();
  });
});
