import type { QualityItemResultDto, QualityLabelDto, QualityScorecardDto } from '@kefu/protocol';

/** The inspector's draft of one item: what save sends for it. */
export type Draft = Record<string, QualityItemResultDto>;

export const emptyDraft = (card: QualityScorecardDto, saved: readonly QualityItemResultDto[]): Draft => {
  const out: Draft = {};
  for (const it of card.items) {
    const s = saved.find((x) => x.labelid === it.id);
    out[it.id] = s
      ? { ...s, messageids: [...s.messageids] }
      : { labelid: it.id, score: 0, messageids: [], comment: '' };
  }
  return out;
};

/**
 * The score the server will give (shown while scoring): the base less the deductions plus the bonuses,
 * never below 0; a marked fatal item fails the conversation whatever the score.
 */
export function previewScore(
  card: Pick<QualityScorecardDto, 'base' | 'passmark' | 'items'>,
  draft: Draft,
): { score: number; pass: boolean; fatal: boolean } {
  let score = card.base;
  let fatal = false;
  for (const it of card.items) {
    const s = clampScore(it, draft[it.id]?.score ?? 0);
    if (it.kind === 'add') score += s;
    else score -= s;
    if (it.fatal && s > 0) fatal = true;
  }
  score = Math.max(0, score);
  return { score, pass: !fatal && score >= card.passmark, fatal };
}

export const clampScore = (it: Pick<QualityLabelDto, 'points'>, n: number): number =>
  Math.min(it.points, Math.max(0, Math.round(n)));

/** Clicking a message while an item is chosen cites it, clicking it again withdraws the citation. */
export function toggleCitation(draft: Draft, labelid: string, messageid: string): Draft {
  const cur = draft[labelid];
  if (!cur) return draft;
  const has = cur.messageids.includes(messageid);
  return {
    ...draft,
    [labelid]: {
      ...cur,
      messageids: has ? cur.messageids.filter((m) => m !== messageid) : [...cur.messageids, messageid],
    },
  };
}

/** Items in card order under their headings ('' first, then the headings as they first appear). */
export function groupItems(items: readonly QualityLabelDto[]): Array<[string, QualityLabelDto[]]> {
  const groups = new Map<string, QualityLabelDto[]>();
  for (const it of [...items].sort((a, b) => a.sort - b.sort)) {
    const g = groups.get(it.groupname) ?? [];
    g.push(it);
    groups.set(it.groupname, g);
  }
  return [...groups.entries()];
}
