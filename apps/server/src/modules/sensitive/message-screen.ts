import { CODES, type MsgType, type SensitiveKind } from '@kefu/protocol';
import { AppError } from '../../platform/http/errors.js';
import { newTimeId } from '../../platform/ids.js';
import type { Engine } from '../conversation/engine.js';
import { agentRoomsOf } from '../conversation/message.service.js';
import type { AgentServiceRow } from '../conversation/presenter.js';
import type { Hits } from './matcher.js';
import { insertHit } from './sensitive.repository.js';
import { screenOf } from './screen.js';

/**
 * The message path's part (visitor.socket / agent.socket): scan a chat text against the sender's list
 * before it is stored. Synchronous once the tenant's lists are built; null for no hit (almost always).
 */
export const scanMessage = (
  e: Engine,
  orgi: string,
  side: SensitiveKind,
  msgtype: MsgType,
  text: string,
): Hits | null | Promise<Hits | null> => (msgtype === 'text' ? screenOf(e.db).scan(orgi, side, text) : null);

/** sensitive_blocked; for an agent the message names the words (fields.words too). */
class Blocked extends AppError {
  constructor(private readonly words?: string) {
    super('sensitive_blocked', CODES.badRequest, words ? { words } : undefined);
  }
  override text(lang: string): string {
    return this.words ? `${super.text(lang)}: ${this.words}` : super.text(lang);
  }
}

/**
 * A block hit: the attempt is recorded for supervisors and the message refused with `sensitive_blocked`.
 * An agent is told which words; a visitor is not (it would only help getting around the list).
 */
export async function refuseBlocked(
  e: Engine,
  s: AgentServiceRow,
  side: SensitiveKind,
  hits: Hits,
): Promise<never> {
  await record(e, s, '', side, hits, 'block', hits.block);
  throw new Blocked(side === 'agent' ? hits.block.join('、') : undefined);
}

/**
 * After the message is stored: its hits are recorded (quality inspection reads them) and an alert goes to
 * the agents following the conversation (owner, collaborators, supervisors who joined it).
 */
export async function reportHits(
  e: Engine,
  s: AgentServiceRow,
  messageId: string,
  side: SensitiveKind,
  hits: Hits,
): Promise<void> {
  const words = [...hits.alert, ...hits.mask];
  await record(e, s, messageId, side, hits, hits.action, words);
  if (hits.alert.length === 0) return;
  e.rt.agents.to(await agentRoomsOf(e, s)).emit('notice', {
    type: 'sensitive',
    agentserviceid: s.id,
    userid: s.userid,
    id: messageId,
    message: hits.alert.join('、'),
  });
}

async function record(
  e: Engine,
  s: AgentServiceRow,
  messageId: string,
  side: SensitiveKind,
  hits: Hits,
  action: Hits['action'],
  words: string[],
): Promise<void> {
  const now = e.clock.now();
  await insertHit(e.db.kysely, {
    id: newTimeId(now),
    orgi: s.orgi,
    agentserviceid: s.id,
    messageid: messageId,
    side,
    action,
    words: (words.length ? words : [...hits.block, ...hits.mask, ...hits.alert]).join('\n'),
    createtime: now,
  });
}
