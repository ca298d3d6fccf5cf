import { describe, expect, it } from 'vitest';
import { newId, newTimeId } from './ids.js';

describe('ids', () => {
  it('newId: 32 hex chars, random', () => {
    expect(newId()).toMatch(/^[0-9a-f]{32}$/);
    expect(newId()).not.toBe(newId());
  });

  it('newTimeId: a UUIDv7 in 32 hex chars that sorts by creation time', () => {
    const id = newTimeId(0x18c_0000_0001);
    expect(id).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    expect(id.slice(0, 12)).toBe('018c00000001');
    const ids = [1000, 1001, 5000, 2 ** 40].map((t) => newTimeId(t));
    expect([...ids].sort()).toEqual(ids);
    const same = new Set(Array.from({ length: 1000 }, () => newTimeId(42)));
    expect(same.size).toBe(1000);
    // Across several refills of the random pool: every id well-formed, the variant digit spread.
    const many = Array.from({ length: 2000 }, () => newTimeId());
    for (const x of many) expect(x).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    expect(new Set(many.map((x) => x[16])).size).toBe(4);
    expect(new Set(many).size).toBe(2000);
  });
});
