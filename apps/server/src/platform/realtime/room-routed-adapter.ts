import { RedisAdapter, type RedisAdapterOptions } from '@socket.io/redis-adapter';
import type { Namespace } from 'socket.io';
import type { Redis } from 'ioredis';

/**
 * The Redis adapter, changed where a published emit is encoded and decoded:
 *
 * - **Rooms in the channel name.** The stock adapter names the room in the channel only when an emit
 *   targets exactly one room; a chat line goes to several (the conversation, its owner, collaborators),
 *   so every node decoded every line just to find it had none of those rooms. Here all the rooms travel
 *   in the channel (`<prefix>#<nsp>#<room>\x1f<room>…#`), and a node that holds none skips the message.
 * - **Own messages.** A node receives its own publishes (pattern subscription); the stock adapter decodes
 *   them and then compares the sender uid. The uid leads every message, so a byte-prefix compare is enough.
 * - **Encoded once.** The stock adapter serialises the packet for Redis, and every receiving node parses it
 *   and serialises it again for its sockets (and the sender serialises it for its own sockets too, even
 *   when it has none in those rooms). Here the socket.io packet is encoded once, by the sender, and travels
 *   as is (`#<uid>\n<rooms/except JSON>\n<packet>`); receivers parse only the small options part and write
 *   the packet to their sockets unchanged. Binary packets keep the stock JSON form. `onAnyOutgoing`
 *   listeners are not called for emits that arrive from another node (kefu has none).
 *
 * Everything else (requests, acks, fetchSockets, socketsJoin…) is the stock adapter's. All nodes of a
 * cluster must run this adapter (a single-room channel is the same as the stock one, several rooms are not).
 */

/** Cannot appear in our room names (ids, `agent:` … prefixes); a room containing it disables routing. */
const SEP = '\u001f';
/** Marks a room of the paired namespace in a channel name (see broadcastWithPair). */
const PAIR = '\u001e';
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
  readonly encoder: { encode(packet: unknown): unknown[] };
  hasRoom(room: string): boolean;
  /** Calls back with every local socket the options select (rooms minus except). */
  apply(opts: BroadcastOptions, callback: (socket: LocalSocket) => void): void;
}

type WirePacket = { nsp?: string } & Record<string, unknown>;
type WireOpts = {
  rooms: string[];
  except: string[];
  flags?: BroadcastOptions['flags'];
  /** Rooms (and exceptions) of the paired namespace that get the same event. */
  pair?: { rooms: string[]; except: string[] };
};

/** Who gets an emit in one namespace: sockets in any of `rooms`, minus the socket ids in `except`. */
export interface RoomTarget {
  rooms: string[];
  except: string[];
}

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
    if (++n > MAX_ROUTED_ROOMS || r.includes(SEP) || r.includes('#') || r.lastIndexOf(PAIR) > 0) return '';
    tail = n === 1 ? r : tail + SEP + r;
    if (tail.length > MAX_CHANNEL_TAIL) return '';
  }
  return tail;
}

export class RoomRoutedAdapter extends RedisAdapter {
  /** How this node's own publishes begin: `#<uid>\n` (pre-encoded) or `["<uid>",` (JSON). */
  private readonly ownPrefixes: [Buffer, Buffer];

  constructor(nsp: Namespace, pub: Redis, sub: Redis, opts: Partial<RedisAdapterOptions>) {
    super(nsp, pub, sub, opts);
    const uid = (this as unknown as Internals).uid;
    this.ownPrefixes = [Buffer.from(`#${uid}\n`), Buffer.from(`["${uid}",`)];
  }

  /**
   * The namespace whose sockets get a paired emit's second copy (the visitor side of a chat line); set
   * once at startup, on every node alike.
   */
  pair: Namespace | null = null;

  /**
   * One event to rooms of this namespace and rooms of the paired one, with ONE publish: the data is
   * serialised once, both socket.io packets are that JSON behind their namespace's header, and each node
   * writes whichever of the two its sockets need. Two plain emits cost two serialisations and two
   * publishes, each received (and dropped) by the sending node again.
   */
  broadcastWithPair(event: string, data: unknown, here: RoomTarget, there: RoomTarget): void {
    const self = this as unknown as Internals;
    const pair = this.pair;
    if (!pair || here.rooms.length === 0 || there.rooms.length === 0) {
      throw new Error('broadcastWithPair needs a paired namespace and rooms on both sides');
    }
    const body = JSON.stringify([event, data]);
    const hereText = eventPacket(self.nsp, body);
    const wire: WireOpts = { rooms: here.rooms, except: here.except, pair: there };
    publish(
      self,
      roomsTail([...here.rooms, ...there.rooms.map((r) => PAIR + r)]),
      preEncoded(self, wire, hereText),
    );
    deliverLocal(self, here, hereText);
    deliverLocal(pair.adapter as unknown as Internals, there, eventPacket(pair, body));
  }

  override broadcast(packet: WirePacket, opts: BroadcastOptions): void {
    const self = this as unknown as Internals;
    packet.nsp = self.nsp.name;
    const flags = opts.flags ?? {};
    const encoded = self.encoder.encode(packet);
    const text = encoded.length === 1 && typeof encoded[0] === 'string' ? encoded[0] : null;
    if (!flags.local) {
      const wire: WireOpts = { rooms: [...opts.rooms], except: [...new Set(opts.except)], flags: opts.flags };
      publish(
        self,
        roomsTail(wire.rooms),
        text === null
          ? (self.parser.encode([self.uid, packet, wire]) as string)
          : preEncoded(self, wire, text),
      );
    }
    const targets: LocalSocket[] = [];
    self.apply(opts, (socket) => targets.push(socket));
    if (targets.length === 0) return;
    // Several local recipients: the stock path, which also builds the WebSocket frame once for all.
    if (targets.length > 1 || text === null) return localBroadcast.call(this, packet, opts);
    writeTo(targets[0]!, encoded, flags);
  }
}

/** A socket of this node as the in-memory adapter hands it out. */
interface LocalSocket {
  client: { writeToEngine(encoded: unknown[], opts: object): void };
}

function writeTo(
  socket: LocalSocket,
  encoded: unknown[],
  flags: NonNullable<BroadcastOptions['flags']>,
): void {
  socket.client.writeToEngine(encoded, {
    preEncoded: true,
    volatile: flags.volatile,
    compress: flags.compress,
  });
}

/**
 * Fire-and-forget, as the stock adapter's emit: a publish while Redis is away (or at shutdown, racing
 * `quit()`) rejects with "Connection is closed"; the connection's 'error' listener already reports the
 * outage, so the rejection is dropped here instead of surfacing as an unhandled rejection. `tail` names
 * the rooms (roomsTail); empty, the message goes to every node.
 */
function publish(self: Internals, tail: string, message: string): void {
  self.pubClient.publish(tail ? `${self.channel}${tail}#` : self.channel, message).catch(() => undefined);
}

/** A socket.io EVENT packet as its encoder writes it (no ack id): type, namespace, the JSON array. */
const eventPacket = (nsp: { name: string }, body: string): string => `2${nsp.name},${body}`;

/** The pre-encoded wire form: `#<uid>\n<rooms/except JSON>\n<socket.io packet>` (parsed in routedOnMessage). */
const preEncoded = (self: Internals, wire: WireOpts, packet: string): string =>
  `#${self.uid}\n${JSON.stringify(wire)}\n${packet}`;

/** Writes an encoded packet to this node's sockets in `to` (rooms minus except). */
function deliverLocal(
  adapter: Internals,
  to: RoomTarget,
  packet: string,
  flags: NonNullable<BroadcastOptions['flags']> = {},
): void {
  adapter.apply({ rooms: new Set(to.rooms), except: new Set(to.except), flags }, (socket) =>
    writeTo(socket, [packet], flags),
  );
}

function startsWith(msg: Buffer, prefix: Buffer): boolean {
  return msg.length > prefix.length && msg.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}

function routedOnMessage(
  this: RoomRoutedAdapter,
  _pattern: unknown,
  rawChannel: Buffer | string,
  msg: Buffer,
): void {
  const self = this as unknown as Internals & { ownPrefixes: [Buffer, Buffer] };
  const channel = rawChannel.toString();
  if (!channel.startsWith(self.channel)) return;
  const tail = channel.slice(self.channel.length, -1);
  const pairAdapter = this.pair ? (this.pair.adapter as unknown as Internals) : null;
  const held = (r: string): boolean =>
    r.startsWith(PAIR) ? !!pairAdapter?.hasRoom(r.slice(1)) : self.hasRoom(r);
  if (tail !== '' && !tail.split(SEP).some(held)) return;
  if (!Buffer.isBuffer(msg)) return;
  if (startsWith(msg, self.ownPrefixes[0]) || startsWith(msg, self.ownPrefixes[1])) return;
  if (msg[0] === 0x23) {
    // `#<uid>\n<options JSON>\n<socket.io packet as encoded by the sender>`: written as is, never re-encoded.
    const raw = msg.toString();
    const a = raw.indexOf('\n');
    const b = raw.indexOf('\n', a + 1);
    if (a < 0 || b < 0) return;
    const opts = JSON.parse(raw.slice(a + 1, b)) as WireOpts;
    const text = raw.slice(b + 1);
    deliverLocal(self, opts, text, opts.flags ?? {});
    // A paired emit: the same packet behind the paired namespace's header.
    const head = eventPacket(self.nsp, '');
    if (opts.pair && pairAdapter && this.pair && text.startsWith(head))
      deliverLocal(pairAdapter, opts.pair, eventPacket(this.pair, text.slice(head.length)));
    return;
  }
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
