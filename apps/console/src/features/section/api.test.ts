import { describe, expect, it } from 'vitest';
import { buildOrganTree } from './api';

const o = (id: string, parentid: string | null) => ({ id, name: id, parentid, skill: false });

describe('buildOrganTree', () => {
  it('nests by parentid and treats orphans as roots', () => {
    const tree = buildOrganTree([o('a', null), o('b', 'a'), o('c', 'b'), o('d', 'gone')]);
    expect(tree.map((n) => n.key)).toEqual(['a', 'd']);
    expect(tree[0].children?.[0].children?.[0].key).toBe('c');
  });
  it('can leave out a subtree (a department cannot move under itself)', () => {
    const tree = buildOrganTree([o('a', null), o('b', 'a'), o('c', 'b')], 'b');
    expect(tree[0].children).toBeUndefined();
  });
});
