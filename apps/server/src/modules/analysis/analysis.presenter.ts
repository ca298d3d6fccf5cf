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

type Get = (k: string) => number;

/** Each figure of docs/metrics.md from raw sums (`s`: the satisfied ratings): rates are ratios of sums. */
const FIGURES: Record<Figure, (g: Get, s: () => number) => number | null> = {
  conversations: (g) => g('conversations'),
  effective: (g) => g('effective'),
  served: (g) => g('served'),
  abandoned: (g) => g('abandoned'),
  transfers: (g) => g('transfers'),
  asked: (g) => g('asked'),
  rated: (g) => g('rated'),
  satisfied: (_g, s) => s(),
  messagesIn: (g) => g('msg_in'),
  messagesOut: (g) => g('msg_out'),
  aiConversations: (g) => g('ai'),
  aiToAgent: (g) => g('ai_agent'),
  aiOnly: (g) => g('ai_only'),
  visits: (g) => g('visits'),
  visitors: (g) => g('visitors'),
  invited: (g) => g('invited'),
  inviteAccepted: (g) => g('accepted'),
  tagged: (g) => g('tagged'),
  ratings: (g) => g('ratings'),
  ready: (g) => g('ready_ms'),
  busy: (g) => g('busy_ms'),
  notReady: (g) => g('notready_ms'),
  signedIn: (g) => g('ready_ms') + g('busy_ms') + g('notready_ms'),
  firstResponse: (g) => avg(g('firstresp_ms'), g('firstresp_n')),
  responseTime: (g) => avg(g('resp_ms'), g('resp_n')),
  servingTime: (g) => avg(g('serve_ms'), g('served')),
  waitingTime: (g) => avg(g('wait_ms'), g('wait_n')),
  satisfactionRate: (g, s) => ratio(s(), g('rated')),
  responseRate: (g) => ratio(g('rated'), g('asked')),
  effectiveRate: (g) => ratio(g('effective'), g('conversations')),
  inviteRate: (g) => ratio(g('accepted'), g('invited')),
  // Quality inspection (modules/quality/quality.stats.ts names these sums).
  inspected: (g) => g('q_n'),
  passed: (g) => g('q_pass'),
  fatalFails: (g) => g('q_fatal'),
  appealsOpened: (g) => g('ap_open'),
  appealsUpheld: (g) => g('ap_upheld'),
  deducted: (g) => g('ded_n'),
  deductedPoints: (g) => g('ded_pts'),
  avgScore: (g) => avg1(g('q_score'), g('q_n')),
  passRate: (g) => ratio(g('q_pass'), g('q_n')),
  appealResolve: (g) => avg(g('ap_ms'), g('ap_resolved')),
  scoreSpread: (g) => avg1(g('spread_sum'), g('spread_n')),
  autoOverrideRate: (g) => ratio(g('fd_over'), g('fd_n')),
};

/** The figures of docs/metrics.md from raw sums: averages and rates are ratios of sums. Only those asked. */
export function derive(r: Raw, figures: readonly Figure[], levels: number): Figures {
  const g: Get = (k) => r[k] ?? 0;
  const s = () => satisfiedOf(r, levels);
  const out: Figures = {};
  for (const f of figures) out[f] = FIGURES[f](g, s);
  return out;
}
