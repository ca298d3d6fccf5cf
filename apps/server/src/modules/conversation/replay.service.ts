import type { z } from 'zod';
import {
  hasPermission,
  REPLAY_PAGE_SIZE,
  type agentReplaySchema,
  type MessageDto,
  type ReplayPage,
  type visitorReplaySchema,
} from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import { forbidden, notFound } from '../../platform/http/errors.js';
import type { VisitorSocketData } from '../../platform/realtime/io.js';
import type { Engine } from './engine.js';
import * as mrepo from './message.repository.js';
import * as srepo from './service.repository.js';
import { presentMessage } from './presenter.js';
import { messages } from './talk.service.js';
import { withRobotMeta } from '../robot/flow.service.js';

/**
 * Catch-up after a (re)connect: every message of the conversation after seq `after`, in seq order, read
 * REPLAY_PAGE_SIZE at a time, however many were missed.
 */
export async function replayMissed(
  e: Engine,
  agentserviceid: string,
  after: number,
  emit: (m: MessageDto) => void,
): Promise<void> {
  for (let from = after; ;) {
    const rows = await mrepo.messagesAfter(e.db.kysely, agentserviceid, from, REPLAY_PAGE_SIZE);
    const page = rows.map((r) => presentMessage(r));
    for (const m of await withRobotMeta(e.db.kysely, page)) emit(m);
    if (rows.length < REPLAY_PAGE_SIZE) return;
    from = rows[rows.length - 1]!.seq;
  }
}

/** Agent `replay`: a page of a conversation it may read (talk `followed`), with A01 like the chat calls. */
export function agentReplay(
  e: Engine,
  p: Principal,
  q: z.infer<typeof agentReplaySchema>,
): Promise<ReplayPage> {
  if (!hasPermission(p.usertype, p.auth, 'A01')) throw forbidden();
  return messages(e, p, { agentserviceid: q.agentserviceid, after: q.after, ps: q.ps });
}

/** Visitor `replay`: a page of one of its own conversations (its latest when no id is given). */
export async function visitorReplay(
  e: Engine,
  v: VisitorSocketData,
  q: z.infer<typeof visitorReplaySchema>,
): Promise<ReplayPage> {
  const k = e.db.kysely;
  const s = q.agentserviceid
    ? await srepo.findService(k, q.agentserviceid)
    : await srepo.latestServiceOf(k, v.orgi, v.userid);
  // Another visitor's conversation is answered like a missing one: its existence is not the caller's to know.
  if (!s || s.userid !== v.userid || s.orgi !== v.orgi) throw notFound('conversation_not_found');
  const rows = await mrepo.messagesAfter(k, s.id, q.after, q.ps + 1);
  const hasMore = rows.length > q.ps;
  return {
    agentserviceid: s.id,
    list: await withRobotMeta(
      k,
      (hasMore ? rows.slice(0, q.ps) : rows).map((r) => presentMessage(r)),
    ),
    hasMore,
  };
}
