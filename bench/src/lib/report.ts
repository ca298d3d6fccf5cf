/** One line of the result table. `ratio` is ours / baseline unless the row says otherwise. */
export interface Row {
  id: string;
  metric: string;
  unit: string;
  baseline: number | null;
  ours: number;
  ratio: number | null;
  /** min–max of the per-pair ratios when the run was interleaved A B A B. */
  range?: [number, number];
  target: string;
  /** null = no target for this line (informative). */
  holds: boolean | null;
  note?: string;
}

export interface Skip {
  id: string;
  reason: string;
}

export interface Mode {
  smoke: boolean;
  /** Interleaved baseline/ours pairs per measurement. */
  rounds: number;
}

/** `le`: ours/baseline must be ≤ limit; `ge`: ≥ limit. */
export function row(
  id: string,
  metric: string,
  unit: string,
  base: number[],
  ours: number[],
  limit: number,
  dir: 'le' | 'ge',
  note?: string,
): Row {
  const ratios = ours.map((o, i) => o / base[i]).filter((x) => Number.isFinite(x));
  const sorted = [...ratios].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const ratio =
    sorted.length === 0 ? Number.NaN : sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const med = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  return {
    id,
    metric,
    unit,
    baseline: med(base),
    ours: med(ours),
    ratio,
    range: ratios.length > 1 ? [sorted[0], sorted[sorted.length - 1]] : undefined,
    target: `${dir === 'le' ? '≤' : '≥'} ${limit}×`,
    holds: Number.isFinite(ratio) ? (dir === 'le' ? ratio <= limit : ratio >= limit) : false,
    note,
  };
}
