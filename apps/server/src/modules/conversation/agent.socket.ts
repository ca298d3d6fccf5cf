import type { ExtendedError } from 'socket.io';
import {
  agentMessageSchema,
  agentReplaySchema,
  agentStatusSchema,
  collaborationSchema,
  type AgentUserDto,
  type MessageDto,
} from '@kefu/protocol';
import { authenticate } from '../../platform/auth/guard.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { parse } from '../../platform/http/validate.js';
import { agentRoom, orgRoom, serviceRoom } from '../../platform/realtime/rooms.js';
import { toVisitor, type Engine } from './engine.js';
import { agentSocketArrived, agentSocketGone, ping, setAgentState } from './agentstate.service.js';
import { deliverLive, StaleConversation, storeMessage } from './message.service.js';
import { agentReplay, replayMissed } from './replay.service.js';
import * as srepo from './service.repository.js';
import { presentAgentUser, presentMessage, type AgentServiceRow } from './presenter.js';
import { failure, handler, pipelined } from './socket-ack.js';
import { requireCollaborationRight, requireLiveChat, requireStateRight } from './agent-rights.js';
import { monitorJoin } from '../monitor/join.js';
import { refuseBlocked, reportHits, scanMessage } from '../sensitive/message-screen.js';

function tokenOf(q: Record<string, unknown>, auth: Record<string, unknown>): string {
  const t = q.session ?? auth.session ?? auth.token;
  return typeof t === 'string' ? t : '';
}

export function installAgentSocket(e: Engine): void {
  e.rt.agents.use((socket, next) => {
    const token = tokenOf(socket.handshake.query, socket.handshake.auth as Record<string, unknown>);
    authenticate(e.db, token)
      .then((principal) => {
        socket.data.principal = principal;
        next();
      })
      .catch((err: unknown) => {
        const f = failure(err, 'zh');
        const key = !f.success ? (f.key ?? 'not_logged_in') : 'not_logged_in';
        const error = new Error(key) as ExtendedError;
        error.data = f;
        next(error);
      });
  });

  e.rt.agents.on('connection', (socket) => {
    const p = socket.data.principal;
    const lang = () => p.language;
    const queue = { tail: Promise.resolve() as Promise<unknown> };
    void socket.join([agentRoom(p.id), orgRoom(p.orgi)]);
    // A reload or a second tab: the state the agent chose holds (the grace of a gone socket ends here).
    agentSocketArrived(e, p.id).catch((err: unknown) => console.error('agent connect', err));
    // Conversations this socket wrote to (by agentserviceid or `u:<visitor>`): tenant and visitor checked
    // once; status and ownership/collaboration are re-checked by every write (see NewMessage.guard), and
    // an entry is dropped when that check fails.
    const convs = new Map<string, AgentServiceRow>();

    socket.on(
      'agentstatus',
      handler(
        lang,
        async (payload: unknown) => {
          const { status } = parse(agentStatusSchema, payload);
          requireStateRight(socket.data.principal, status);
          return { status: await setAgentState(e, p.id, status, 'socket') };
        },
        queue,
      ),
    );
    socket.on(
      'ping',
      handler(lang, async () => ({ time: await ping(e, p.id) }), queue),
    );
    socket.on(
      'collaboration',
      handler(
        lang,
        async (payload: unknown): Promise<AgentUserDto> => {
          const { id } = parse(collaborationSchema, payload);
          const au = await srepo.findAgentUser(e.db.kysely, id);
          const s = au ? await srepo.findService(e.db.kysely, au.agentserviceid) : undefined;
          if (!au || !s || s.orgi !== p.orgi) throw notFound('conversation_not_found');
          const invited = (await srepo.collaboratorsOf(e.db.kysely, s.id)).includes(p.id);
          requireCollaborationRight(socket.data.principal, invited);
          // Uninvited: a supervisor, limited to its monitor scope and audited.
          if (!invited && s.agentno !== p.id) await monitorJoin(e, socket.data.principal, s);
          await socket.join(serviceRoom(s.id));
          return presentAgentUser(au, s, e.clock.now(), { collabora: true });
        },
        queue,
      ),
    );
    socket.on(
      'message',
      pipelined(
        lang,
        async (payload: unknown, queued): Promise<MessageDto | null> => {
          const m = parse(agentMessageSchema, payload);
          requireLiveChat(socket.data.principal);
          const k = e.db.kysely;
          const resolve = async (): Promise<AgentServiceRow> => {
            const s = m.agentserviceid
              ? await srepo.findService(k, m.agentserviceid)
              : await srepo.latestServiceOf(k, p.orgi, m.touser);
            if (!s || s.userid !== m.touser || s.orgi !== p.orgi) throw notFound('conversation_not_found');
            const owner = s.agentno === p.id;
            if (!owner && !(await srepo.collaboratorsOf(k, s.id)).includes(p.id))
              throw forbidden('not_conversation_owner');
            if (s.status !== 'inservice') throw badRequest('conversation_ended');
            return s;
          };
          if (m.type === 'writing') {
            const s = await resolve();
            toVisitor(e, s.userid, 'writing', { agentserviceid: s.id, message: m.message });
            return null;
          }
          if (!m.clientId) throw badRequest('required', { clientId: 'required' });
          // Sensitive words: synchronous unless the tenant's lists are still being built.
          const scanned = scanMessage(e, p.orgi, 'agent', m.msgtype, m.message);
          const hits = scanned instanceof Promise ? await scanned : scanned;
          const key = m.agentserviceid ?? `u:${m.touser}`;
          for (let attempt = 0; attempt < 2; attempt++) {
            let s = convs.get(key);
            if (!s || s.userid !== m.touser) {
              s = await resolve();
              if (convs.size >= 1000) convs.clear();
              convs.set(key, s);
            }
            if (hits?.action === 'block') await refuseBlocked(e, s, 'agent', hits);
            let stored;
            try {
              stored = await storeMessage(
                e,
                {
                  service: s,
                  sender: p.id,
                  username: m.nickname || p.uname,
                  touser: s.userid,
                  clientId: m.clientId,
                  type: 'message',
                  msgtype: m.msgtype,
                  calltype: 'out',
                  message: hits ? hits.text : m.message,
                  attachmentid: m.attachmentid,
                  guard: { kind: 'agent', agent: p.id },
                },
                queued,
              );
            } catch (err) {
              if (!(err instanceof StaleConversation)) throw err;
              convs.delete(key);
              continue;
            }
            const owner = (stored.live?.agentno ?? s.agentno) === p.id;
            const dto = presentMessage(stored.row, stored.tokenum, !owner);
            if (stored.live) deliverLive(e, s, stored.live, dto, socket.id);
            if (hits && stored.created) await reportHits(e, s, stored.row.id, 'agent', hits);
            return dto;
          }
          // Ended or transferred between the check and the write, twice: answer as the check would.
          await resolve();
          throw badRequest('conversation_ended');
        },
        queue,
      ),
    );

    socket.on(
      'replay',
      handler(lang, (payload: unknown) => agentReplay(e, p, parse(agentReplaySchema, payload)), queue),
    );

    socket.on('disconnect', () => {
      if (e.closing.value) return;
      // Not notready at once: the last socket gone starts the grace (agentstate.service presenceSweep).
      agentSocketGone(e, p.id).catch((err: unknown) => console.error('agent disconnect', err));
    });

    // Catch-up: messages missed while away, per conversation the agent still follows.
    queue.tail = queue.tail
      .then(() => catchUp(e, p.id, socket.handshake.query.lastSeqs, (m) => socket.emit('message', m)))
      .catch((err: unknown) => {
        // As on the visitor side: during shutdown the pool is gone and the socket with it.
        if (!e.closing.value) console.error('agent catch-up', err);
      });
  });
}

async function catchUp(e: Engine, me: string, raw: unknown, emit: (m: MessageDto) => void): Promise<void> {
  if (typeof raw !== 'string' || !raw) return;
  let seqs: Record<string, unknown>;
  try {
    seqs = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return;
  }
  for (const [sid, seq] of Object.entries(seqs).slice(0, 200)) {
    if (typeof seq !== 'number') continue;
    const s = await srepo.findService(e.db.kysely, sid);
    if (!s) continue;
    if (s.agentno !== me && !(await srepo.collaboratorsOf(e.db.kysely, s.id)).includes(me)) continue;
    await replayMissed(e, sid, seq, emit);
  }
}
