import type { Figure, Figures } from '@kefu/protocol';

/** Raw sums of a row, a bucket or the total: rollup columns (conversation sums, visits, work time…). */
export type Raw = Record<string, number>;

export function addRaw(into: Raw, from: Raw): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
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

/** The figures of docs/metrics.md from raw sums: averages and rates are ratios of sums. */
export function derive(r: Raw, figures: readonly Figure[], levels: number): Figures {
  const g = (k: string) => r[k] ?? 0;
  const satisfied = satisfiedOf(r, levels);
  const all: Record<Figure, number | null> = {
    conversations: g('conversations'),
    effective: g('effective'),
    served: g('served'),
    abandoned: g('abandoned'),
    transfers: g('transfers'),
    asked: g('asked'),
    rated: g('rated'),
    satisfied,
    messagesIn: g('msg_in'),
    messagesOut: g('msg_out'),
    aiConversations: g('ai'),
    aiToAgent: g('ai_agent'),
    aiOnly: g('ai_only'),
    visits: g('visits'),
    visitors: g('visitors'),
    invited: g('invited'),
    inviteAccepted: g('accepted'),
    tagged: g('tagged'),
    ratings: g('ratings'),
    ready: g('ready_ms'),
    busy: g('busy_ms'),
    notReady: g('notready_ms'),
    signedIn: g('ready_ms') + g('busy_ms') + g('notready_ms'),
    firstResponse: avg(g('firstresp_ms'), g('firstresp_n')),
    responseTime: avg(g('resp_ms'), g('resp_n')),
    servingTime: avg(g('serve_ms'), g('served')),
    waitingTime: avg(g('wait_ms'), g('wait_n')),
    satisfactionRate: ratio(satisfied, g('rated')),
    responseRate: ratio(g('rated'), g('asked')),
    effectiveRate: ratio(g('effective'), g('conversations')),
    inviteRate: ratio(g('accepted'), g('invited')),
    // Quality inspection (modules/quality/quality.stats.ts names these sums).
    inspected: g('q_n'),
    passed: g('q_pass'),
    fatalFails: g('q_fatal'),
    appealsOpened: g('ap_open'),
    appealsUpheld: g('ap_upheld'),
    deducted: g('ded_n'),
    deductedPoints: g('ded_pts'),
    avgScore: avg1(g('q_score'), g('q_n')),
    passRate: ratio(g('q_pass'), g('q_n')),
    appealResolve: avg(g('ap_ms'), g('ap_resolved')),
    scoreSpread: avg1(g('spread_sum'), g('spread_n')),
    autoOverrideRate: ratio(g('fd_over'), g('fd_n')),
  };
  const out: Figures = {};
  for (const f of figures) out[f] = all[f];
  return out;
}
