/** Flat rows with a parent id, as the type / topic / department trees are stored. */
export interface TreeRow {
  id: string;
  parentid: string | null;
}

/** The node and every node below it (cycles are tolerated: each id once). */
export function subtreeIds(all: readonly TreeRow[], rootId: string): string[] {
  const out = [rootId];
  const seen = new Set(out);
  for (let i = 0; i < out.length; i++) {
    for (const t of all) {
      if (t.parentid === out[i] && !seen.has(t.id)) {
        seen.add(t.id);
        out.push(t.id);
      }
    }
  }
  return out;
}
