/** A node of antd Tree / TreeSelect data built from a flat list that names its parent. */
export interface TreeNode {
  key: string;
  value: string;
  title: string;
  children: TreeNode[];
}

/**
 * Flat rows (by parentid, in list order) → antd tree data; a row whose parent is unknown sits at the top;
 * `exclude` drops a row and its subtree (parent pickers: nothing can move below itself).
 */
export function treeData(
  rows: ReadonlyArray<{ id: string; name: string; parentid: string | null }>,
  exclude?: string,
): TreeNode[] {
  const byParent = new Map<string, Array<(typeof rows)[number]>>();
  const ids = new Set(rows.map((x) => x.id));
  for (const x of rows) {
    const p = x.parentid && ids.has(x.parentid) ? x.parentid : '';
    byParent.set(p, [...(byParent.get(p) ?? []), x]);
  }
  const build = (parent: string): TreeNode[] =>
    (byParent.get(parent) ?? [])
      .filter((x) => x.id !== exclude)
      .map((x) => ({ key: x.id, value: x.id, title: x.name, children: build(x.id) }));
  return build('');
}
