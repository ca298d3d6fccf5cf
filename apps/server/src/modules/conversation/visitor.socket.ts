import type { ExtendedError } from 'socket.io';
import {
  visitorHandshakeSchema,
  visitorMessageSchema,
  visitorNewSchema,
  visitorReadSchema,
  visitorReplaySchema,
  visitorWritingSchema,
  withdrawSchema,
  type MessageDto,
} from '@kefu/protocol';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { parse } from '../../platform/http/validate.js';
import { agentRoom, visitorRoom } from '../../platform/realtime/rooms.js';
import type { Engine } from './engine.js';
import {
  deliverLive,
  StaleConversation,
  storeMessage,
  visitorRead,
  withdraw,
  type Stored,
} from './message.service.js';
import type { AgentServiceRow } from './presenter.js';
import * as srepo from './service.repository.js';
import { presentMessage } from './presenter.js';
import { endConversation } from './lifecycle.service.js';
import { replayMissed, visitorReplay } from './replay.service.js';
import { failure, handler, pipelined } from './socket-ack.js';
import { refuseBlocked, reportHits, scanMessage } from '../sensitive/message-screen.js';
import { requestAgent, stateOf, visitorConnect, welcomeFor } from './visitor.service.js';
import { visitorAsksHuman, visitorSaid } from '../robot/flow.service.js';
import { visitorCameBack, visitorGone } from './presence.service.js';

const header = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));

export function installVisitorSocket(e: Engine): void {
  e.rt.visitors.use((socket, next) => {
    const hs = socket.handshake;
    Promise.resolve()
      .then(async () => {
        const q = parse(visitorHandshakeSchema, hs.query);
        const meta = {
          ip: e.clientAddress(hs.address, hs.headers['x-forwarded-for']),
          userAgent: header(hs.headers['user-agent']),
          referer: header(hs.headers.referer),
        };
        const { identity, token, cameBack } = await visitorConnect(e, q, meta);
        socket.data = { ...identity, token, lastSeq: q.lastSeq, cameBack };
        next();
      })
      .catch((err: unknown) => {
        const f = failure(err, 'zh');
        const error = new Error(!f.success ? (f.key ?? 'invalid_field') : 'invalid_field') as ExtendedError;
        error.data = f;
        next(error);
      });
  });

  e.rt.visitors.on('connection', (socket) => {
    const v = socket.data;
    const lang = () => 'zh';
    const queue = { tail: Promise.resolve() as Promise<unknown> };
    void socket.join(visitorRoom(v.userid));
    if (v.cameBack) visitorCameBack(e, v).catch((err: unknown) => console.error('visitor presence', err));
    socket.on('disconnect', () => {
      if (e.closing.value) return;
      visitorGone(e, v).catch((err: unknown) => console.error('visitor presence', err));
    });
    const open = async () => {
      const s = await srepo.openServiceOf(e.db.kysely, v.orgi, v.userid);
      if (!s) throw badRequest('conversation_ended');
      return s;
    };
    // The open conversation, kept between messages of this socket. Only its id, visitor and name are used;
    // the write re-checks that it is still open and reads its agent and collaborators (so an end or a
    // transfer on any node is seen by the next message). Dropped on end/new and whenever the check fails.
    let cached: AgentServiceRow | undefined;

    socket.on(
      'new',
      handler(
        lang,
        (payload: unknown) => {
          cached = undefined;
          return requestAgent(e, v, parse(visitorNewSchema, payload), socket.id);
        },
        queue,
      ),
    );
    socket.on(
      'message',
      pipelined(
        lang,
        async (payload: unknown, queued): Promise<MessageDto> => {
          const m = parse(visitorMessageSchema, payload);
          // Sensitive words: synchronous unless the tenant's lists are still being built.
          const scanned = scanMessage(e, v.orgi, 'user', m.msgtype, m.message);
          const hits = scanned instanceof Promise ? await scanned : scanned;
          const store = (s: AgentServiceRow): Promise<Stored> =>
            storeMessage(
              e,
              {
                service: s,
                sender: v.userid,
                username: s.username,
                touser: s.agentno ?? '',
                clientId: m.clientId,
                type: 'message',
                msgtype: m.msgtype,
                calltype: 'in',
                message: hits ? hits.text : m.message,
                attachmentid: m.attachmentid,
                guard: { kind: 'visitor' },
              },
              queued,
            );
          let s = cached ?? (cached = await open());
          if (hits?.action === 'block') await refuseBlocked(e, s, 'user', hits);
          let stored: Stored;
          try {
            stored = await store(s);
          } catch (err) {
            if (!(err instanceof StaleConversation)) throw err;
            cached = undefined;
            s = cached = await open();
            try {
              stored = await store(s);
            } catch (err2) {
              if (!(err2 instanceof StaleConversation)) throw err2;
              cached = undefined;
              throw badRequest('conversation_ended');
            }
          }
          const dto = presentMessage(stored.row, stored.tokenum);
          if (stored.live) deliverLive(e, s, stored.live, dto, socket.id);
          if (hits && stored.created) await reportHits(e, s, stored.row.id, 'user', hits);
          // No agent on the chat: the robot may serve it (it answers after the ack, in order).
          if (stored.created && stored.live?.agentno === null) void visitorSaid(e, s.id, dto);
          return dto;
        },
        queue,
      ),
    );
    socket.on(
      'writing',
      handler(
        lang,
        async (payload: unknown) => {
          const m = parse(visitorWritingSchema, payload);
          const s = await srepo.openServiceOf(e.db.kysely, v.orgi, v.userid);
          if (s?.agentno) {
            e.rt.agents.to(agentRoom(s.agentno)).emit('notice', {
              type: 'writing',
              agentserviceid: s.id,
              userid: v.userid,
              message: m.message ?? '',
            });
          }
          return null;
        },
        queue,
      ),
    );
    socket.on(
      'read',
      handler(
        lang,
        async (payload: unknown) => {
          const { seq } = parse(visitorReadSchema, payload);
          const s = await srepo.latestServiceOf(e.db.kysely, v.orgi, v.userid);
          if (!s) throw notFound('conversation_not_found');
          await visitorRead(e, s, seq);
          return null;
        },
        queue,
      ),
    );
    socket.on(
      'withdraw',
      handler(lang, (payload: unknown) => withdraw(e, v.userid, parse(withdrawSchema, payload).id), queue),
    );
    socket.on(
      'replay',
      handler(lang, (payload: unknown) => visitorReplay(e, v, parse(visitorReplaySchema, payload)), queue),
    );
    socket.on(
      'handoff',
      handler(
        lang,
        async () => {
          // The 转人工 button: the robot's chat goes to a human (normal routing); the state answers.
          await visitorAsksHuman(e, v.orgi, v.userid);
          const s = await srepo.openServiceOf(e.db.kysely, v.orgi, v.userid);
          if (!s) throw badRequest('conversation_ended');
          return stateOf(e, s);
        },
        queue,
      ),
    );
    socket.on(
      'end',
      handler(
        lang,
        async () => {
          cached = undefined;
          await endConversation(e, (await open()).id, 'user');
          return null;
        },
        queue,
      ),
    );

    queue.tail = queue.tail
      .then(async () => {
        socket.emit('welcome', await welcomeFor(e, v, v.token));
        const s = await srepo.latestServiceOf(e.db.kysely, v.orgi, v.userid);
        if (!s || (v.lastSeq === undefined && s.status === 'end')) return;
        await replayMissed(e, s.id, v.lastSeq ?? 0, (m) => socket.emit('message', m));
      })
      .catch((err: unknown) => {
        // A socket that connects while the node shuts down finds the pool closed: nothing to replay to.
        if (!e.closing.value) console.error('visitor welcome', err);
      });
  });
}
