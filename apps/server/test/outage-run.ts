import type { MessageDto } from '@kefu/protocol';
import { until } from './live.js';
import type { OwnRedis } from './redis-server.js';
import type { TrackedSide } from './resume-client.js';

/**
 * A conversation across a Redis outage, driven the same way by the two-node test and by bench B9: both
 * sides write a line every few tens of ms; Redis is killed `outageMs` into it and started again; both
 * keep writing 400 ms more (the nodes are still reconnecting, attempts up to 1 s apart) and then stop, so
 * their last lines are followed by nothing that would reveal them as a hole — only the resync brings those.
 */
export interface OutageResult {
  /** Acknowledged lines of each side, in the order sent. */
  visitorSent: MessageDto[];
  agentSent: MessageDto[];
  /** How many of those were acknowledged while Redis was down. */
  duringOutage: { visitor: number; agent: number };
  /** Acknowledged lines of one side the other never got (must be 0). */
  lost: number;
  /** From Redis answering again until both sides held every line acknowledged before that moment. */
  caughtUpMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether `side` holds every message of `sent` (by id). */
export const holdsAll = (side: TrackedSide, sent: readonly MessageDto[]): boolean => {
  const ids = new Set(side.messages().map((m) => m.id));
  return sent.every((m) => ids.has(m.id));
};

export async function runOutage(o: {
  redis: OwnRedis;
  visitor: TrackedSide;
  agent: TrackedSide;
  /** What the agent's `message` needs besides clientId and text (touser, agentserviceid). */
  agentPayload: Record<string, unknown>;
  outageMs: number;
  /** How long to wait for both sides to be complete after the writers stop. */
  settleMs?: number;
}): Promise<OutageResult> {
  // When an ack was seen (servers under test may run on a manual clock, so not `createtime`).
  const ackedAt = new Map<string, number>();
  let sending = true;
  const keepSending = async (side: TrackedSide, who: string, extra: object, gapMs: number) => {
    for (let i = 0; sending; i++) {
      const m = await side.send({ ...extra, clientId: `${who}-line-${i}`, message: `${who} ${i}` });
      ackedAt.set(m.id, Date.now());
      await sleep(gapMs);
    }
  };
  const writers = Promise.all([
    keepSending(o.visitor, 'v', {}, 40),
    keepSending(o.agent, 'a', o.agentPayload, 55),
  ]);
  await sleep(1_000);
  const down = Date.now();
  await o.redis.stop();
  await sleep(o.outageMs);
  await o.redis.start();
  const back = Date.now();
  const beforeBack = (list: MessageDto[]) => list.filter((m) => (ackedAt.get(m.id) ?? back) < back);
  const vBefore = beforeBack(o.visitor.sent());
  const aBefore = beforeBack(o.agent.sent());
  const caughtUp = until(
    () => holdsAll(o.agent, vBefore) && holdsAll(o.visitor, aBefore),
    o.settleMs ?? 20_000,
  ).then(() => Date.now() - back);
  await sleep(400);
  sending = false;
  await writers;
  const [visitorSent, agentSent] = [o.visitor.sent(), o.agent.sent()];
  const complete = until(
    () => holdsAll(o.agent, visitorSent) && holdsAll(o.visitor, agentSent),
    o.settleMs ?? 20_000,
  ).catch(() => undefined);
  const caughtUpMs = await caughtUp.catch(() => Number.POSITIVE_INFINITY);
  await complete;
  const during = (list: MessageDto[]) =>
    list.filter((m) => ackedAt.get(m.id)! >= down && ackedAt.get(m.id)! < back).length;
  const missing = (side: TrackedSide, sent: MessageDto[]) => {
    const ids = new Set(side.messages().map((m) => m.id));
    return sent.filter((m) => !ids.has(m.id)).length;
  };
  return {
    visitorSent,
    agentSent,
    duringOutage: { visitor: during(visitorSent), agent: during(agentSent) },
    lost: missing(o.agent, visitorSent) + missing(o.visitor, agentSent),
    caughtUpMs,
  };
}
