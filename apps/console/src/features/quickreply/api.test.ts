import { describe, expect, it } from 'vitest';
import type { QuickTypeDto } from '@kefu/protocol';
import { typeTree } from './api';

const t = (id: string, parentid: string | null): QuickTypeDto => ({
  id,
  name: id.toUpperCase(),
  parentid,
  type: 'pub',
  creater: 'u',
  sortindex: 0,
});

describe('typeTree', () => {
  it('nests by parentid, treats unknown parents as roots and can leave out a subtree', () => {
    const list = [t('a', null), t('b', 'a'), t('c', 'b'), t('d', 'gone')];
    expect(typeTree(list)).toEqual([
      {
        key: 'a',
        value: 'a',
        title: 'A',
        children: [
          {
            key: 'b',
            value: 'b',
            title: 'B',
            children: [{ key: 'c', value: 'c', title: 'C', children: [] }],
          },
        ],
      },
      { key: 'd', value: 'd', title: 'D', children: [] },
    ]);
    expect(typeTree(list, 'b')[0]?.children).toEqual([]);
  });
});
