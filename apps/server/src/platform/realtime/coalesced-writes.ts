import { createRequire } from 'node:module';
import type { Socket as NetSocket } from 'node:net';

/**
 * engine.io hands a flushed batch of packets to its WebSocket transport one frame at a time, and ws
 * writes each frame with its own cork/uncork, so N packets waiting for one socket cost N `writev` system
 * calls. Under load they do wait: after a write the transport stays unwritable until the write's
 * callback (next tick), so the acks and messages of a committed batch pile up per socket. Corking the TCP
 * socket around the whole batch sends it with one `writev`; frames, order and callbacks are unchanged.
 */
interface WsTransport {
  /** ws's WebSocket; `_socket` is its TCP socket (private in ws, stable across 8.x). */
  socket?: { _socket?: NetSocket };
}
type Send = (this: WsTransport, packets: unknown[]) => void;
interface EngineIo {
  transports: { websocket: { prototype: { send: Send; kefuCoalesced?: true } } };
}

/** Idempotent; call before the server accepts sockets. Returns whether the patch is in place. */
export function coalesceWebSocketBatches(): boolean {
  // engine.io as socket.io itself loads it, whatever the install layout.
  const fromSocketIo = createRequire(createRequire(import.meta.url).resolve('socket.io'));
  const proto = (fromSocketIo('engine.io') as EngineIo).transports.websocket.prototype;
  if (proto.kefuCoalesced) return true;
  const send = proto.send;
  if (typeof send !== 'function') return false;
  proto.send = function coalescedSend(this: WsTransport, packets: unknown[]): void {
    const raw = this.socket?._socket;
    if (packets.length < 2 || !raw || typeof raw.cork !== 'function') {
      send.call(this, packets);
      return;
    }
    raw.cork();
    try {
      send.call(this, packets);
    } finally {
      raw.uncork();
    }
  };
  proto.kefuCoalesced = true;
  return true;
}
