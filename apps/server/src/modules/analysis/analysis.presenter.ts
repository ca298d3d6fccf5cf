import type { Figure, Figures } from '@kefu/protocol';

/** Raw sums of a row, a bucket or the total: rollup columns (conversation sums, visits, work time…). */
export type Raw = Record<string, number>;

export function addRaw(into: Raw, from: Raw): void {
  for (const k in from) into[k] = (into[k] ?? 0) + from[k]!;
}

const avg = (sum: number, n: number): number | null => (n > 0 ? Math.round(sum / n) : null);
/** An average to one decimal (scores). */
const avg1 = (sum: number, n: number): number | null => (n > 0 ? Math.round((sum * 10) / n) / 10 : null);
const ratio = (num: number, den: number): number | null => (den > 0 ? num / den : null);

/**
 * Levels 1..⌊N/2⌋ of the N configured satisfaction levels count as satisfied (1 is the best: with the
 * default five, 非常满意 and 满意).
 */
export const satisfiedOf = (r: Raw, levels: number): number => {
  let n = 0;
  for (let i = 1; i <= Math.floor(levels / 2); i++) n += r[`l${i}`] ?? 0;
  return n;
};

/** A raw sum (0 when absent). */
const v = (r: Raw, k: string): number => r[k] ?? 0;

/** Each figure of docs/metrics.md from raw sums (`l`: the number of satisfaction levels). */
const FIGURES: Record<Figure, (r: Raw, l: number) => number | null> = {
  conversations: (r) => v(r, 'conversations'),
  effective: (r) => v(r, 'effective'),
  served: (r) => v(r, 'served'),
  abandoned: (r) => v(r, 'abandoned'),
  transfers: (r) => v(r, 'transfers'),
  asked: (r) => v(r, 'asked'),
  rated: (r) => v(r, 'rated'),
  satisfied: (r, l) => satisfiedOf(r, l),
  messagesIn: (r) => v(r, 'msg_in'),
  messagesOut: (r) => v(r, 'msg_out'),
  aiConversations: (r) => v(r, 'ai'),
  aiToAgent: (r) => v(r, 'ai_agent'),
  aiOnly: (r) => v(r, 'ai_only'),
  visits: (r) => v(r, 'visits'),
  visitors: (r) => v(r, 'visitors'),
  invited: (r) => v(r, 'invited'),
  inviteAccepted: (r) => v(r, 'accepted'),
  tagged: (r) => v(r, 'tagged'),
  ratings: (r) => v(r, 'ratings'),
  ready: (r) => v(r, 'ready_ms'),
  busy: (r) => v(r, 'busy_ms'),
  notReady: (r) => v(r, 'notready_ms'),
  signedIn: (r) => v(r, 'ready_ms') + v(r, 'busy_ms') + v(r, 'notready_ms'),
  firstResponse: (r) => avg(v(r, 'firstresp_ms'), v(r, 'firstresp_n')),
  responseTime: (r) => avg(v(r, 'resp_ms'), v(r, 'resp_n')),
  servingTime: (r) => avg(v(r, 'serve_ms'), v(r, 'served')),
  waitingTime: (r) => avg(v(r, 'wait_ms'), v(r, 'wait_n')),
  satisfactionRate: (r, l) => ratio(satisfiedOf(r, l), v(r, 'rated')),
  responseRate: (r) => ratio(v(r, 'rated'), v(r, 'asked')),
  effectiveRate: (r) => ratio(v(r, 'effective'), v(r, 'conversations')),
  inviteRate: (r) => ratio(v(r, 'accepted'), v(r, 'invited')),
  // Quality inspection (modules/quality/quality.stats.ts names these sums).
  inspected: (r) => v(r, 'q_n'),
  passed: (r) => v(r, 'q_pass'),
  fatalFails: (r) => v(r, 'q_fatal'),
  appealsOpened: (r) => v(r, 'ap_open'),
  appealsUpheld: (r) => v(r, 'ap_upheld'),
  deducted: (r) => v(r, 'ded_n'),
  deductedPoints: (r) => v(r, 'ded_pts'),
  avgScore: (r) => avg1(v(r, 'q_score'), v(r, 'q_n')),
  passRate: (r) => ratio(v(r, 'q_pass'), v(r, 'q_n')),
  appealResolve: (r) => avg(v(r, 'ap_ms'), v(r, 'ap_resolved')),
  scoreSpread: (r) => avg1(v(r, 'spread_sum'), v(r, 'spread_n')),
  autoOverrideRate: (r) => ratio(v(r, 'fd_over'), v(r, 'fd_n')),
};

/** The figures of docs/metrics.md from raw sums: averages and rates are ratios of sums. Only those asked. */
export function derive(r: Raw, figures: readonly Figure[], levels: number): Figures {
  const out: Figures = {};
  for (const f of figures) out[f] = FIGURES[f](r, levels);
  return out;
}
