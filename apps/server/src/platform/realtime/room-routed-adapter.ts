import { RedisAdapter, type RedisAdapterOptions } from '@socket.io/redis-adapter';
import type { Namespace } from 'socket.io';
import type { Redis } from 'ioredis';

/**
 * The Redis adapter, with two checks moved in front of the decode of every published emit:
 *
 * - **Rooms in the channel name.** The stock adapter names the room in the channel only when an emit
 *   targets exactly one room; a chat line goes to several (the conversation, its owner, collaborators),
 *   so every node decoded every line just to find it had none of those rooms. Here all the rooms travel
 *   in the channel (`<prefix>#<nsp>#<room>\x1f<room>…#`), and a node that holds none skips the message.
 * - **Own messages.** A node receives its own publishes (pattern subscription); the stock adapter decodes
 *   them and then compares the sender uid. With the JSON parser the uid is the first array element, so a
 *   byte-prefix compare is enough.
 *
 * Everything else (requests, acks, fetchSockets, socketsJoin…) is the stock adapter's. All nodes of a
 * cluster must run this adapter (a single-room channel is the same as the stock one, several rooms are not).
 */

/** Cannot appear in our room names (ids, `agent:` … prefixes); a room containing it disables routing. */
const SEP = '\u001f';
/** Past this many rooms (or characters) the channel would be long for little gain: publish unrouted. */
const MAX_ROUTED_ROOMS = 16;
const MAX_CHANNEL_TAIL = 1024;

type BroadcastOptions = Parameters<RedisAdapter['broadcast']>[1];

/** The stock adapter's private state this subclass reads (declared private in its typings). */
interface Internals {
  readonly channel: string;
  readonly uid: string;
  readonly parser: { encode(v: unknown): unknown; decode(raw: Buffer | string): unknown };
  readonly pubClient: Redis;
  readonly nsp: Namespace;
  hasRoom(room: string): boolean;
}

type WirePacket = { nsp?: string } & Record<string, unknown>;
type WireOpts = { rooms: string[]; except: string[]; flags?: BroadcastOptions['flags'] };

// The in-memory Adapter's broadcast (local delivery), reached without importing socket.io-adapter's class.
const localBroadcast = (
  Object.getPrototypeOf(RedisAdapter.prototype) as {
    broadcast: (this: unknown, packet: unknown, opts: BroadcastOptions) => void;
  }
).broadcast;

/** The channel tail naming `rooms`, or '' when the message must go to every node unfiltered. */
export function roomsTail(rooms: Iterable<string>): string {
  let tail = '';
  let n = 0;
  for (const r of rooms) {
    if (++n > MAX_ROUTED_ROOMS || r.includes(SEP) || r.includes('#')) return '';
    tail = n === 1 ? r : tail + SEP + r;
    if (tail.length > MAX_CHANNEL_TAIL) return '';
  }
  return tail;
}

export class RoomRoutedAdapter extends RedisAdapter {
  /** `["<uid>",`: how this node's own JSON-encoded publishes begin. */
  private readonly ownPrefix: Buffer;

  constructor(nsp: Namespace, pub: Redis, sub: Redis, opts: Partial<RedisAdapterOptions>) {
    super(nsp, pub, sub, opts);
    this.ownPrefix = Buffer.from(`["${(this as unknown as Internals).uid}",`);
  }

  override broadcast(packet: WirePacket, opts: BroadcastOptions): void {
    const self = this as unknown as Internals;
    packet.nsp = self.nsp.name;
    if (!opts.flags?.local) {
      const wire: WireOpts = { rooms: [...opts.rooms], except: [...new Set(opts.except)], flags: opts.flags };
      const tail = roomsTail(wire.rooms);
      void self.pubClient.publish(
        tail ? `${self.channel}${tail}#` : self.channel,
        self.parser.encode([self.uid, packet, wire]) as string,
      );
    }
    localBroadcast.call(this, packet, opts);
  }
}

function routedOnMessage(
  this: RoomRoutedAdapter,
  _pattern: unknown,
  rawChannel: Buffer | string,
  msg: Buffer,
): void {
  const self = this as unknown as Internals & { ownPrefix: Buffer };
  const channel = rawChannel.toString();
  if (!channel.startsWith(self.channel)) return;
  const tail = channel.slice(self.channel.length, -1);
  if (tail !== '' && !tail.split(SEP).some((r) => self.hasRoom(r))) return;
  if (
    Buffer.isBuffer(msg) &&
    msg.length > self.ownPrefix.length &&
    msg.subarray(0, self.ownPrefix.length).equals(self.ownPrefix)
  )
    return;
  const [uid, packet, opts] = self.parser.decode(msg) as [string, WirePacket | undefined, WireOpts];
  if (uid === self.uid || !packet) return;
  if (packet.nsp === undefined) packet.nsp = '/';
  if (packet.nsp !== self.nsp.name) return;
  localBroadcast.call(this, packet, {
    rooms: new Set(opts.rooms),
    except: new Set(opts.except),
    flags: opts.flags,
  });
}

// The stock constructor binds `this.onmessage` to the subscriber; it is private in the typings, so the
// override goes on the prototype (before any instance exists, so the binding picks it up).
Object.defineProperty(RoomRoutedAdapter.prototype, 'onmessage', {
  value: routedOnMessage,
  writable: true,
  configurable: true,
});

/** An adapter factory for `io.adapter()`; socket.io calls it with `new`, so it is a function, not an arrow. */
export function createRoomRoutedAdapter(pub: Redis, sub: Redis, opts: Partial<RedisAdapterOptions>) {
  return function roomRouted(nsp: Namespace): RoomRoutedAdapter {
    return new RoomRoutedAdapter(nsp, pub, sub, opts);
  };
}
