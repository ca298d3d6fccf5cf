import { describe, expect, it } from 'vitest';
import { checkedLeaves, codesToSave } from './api';

describe('role authorisation codes', () => {
  it('feeds only leaves to the conducting tree', () => {
    expect(checkedLeaves(['A01', 'A09', 'A09_A02', 'A09_A02_A01'])).toEqual(['A01', 'A09_A02_A01']);
  });
  it('saves half-checked parents with the checked codes', () => {
    expect(codesToSave(['A09_A02_A01'])).toEqual(['A09', 'A09_A02', 'A09_A02_A01']);
    expect(codesToSave(['A01', 'A03_A01', 'A03_A02'])).toEqual(['A01', 'A03', 'A03_A01', 'A03_A02']);
  });
});
