import { describe, expect, it } from 'vitest';
import { numberReply } from '../numbered-reply.js';

describe('a numbered reply', () => {
  it('is a whole text of one digit 1-9, ASCII or full-width, spaces around allowed', () => {
    expect(numberReply('1')).toBe(1);
    expect(numberReply(' 3 ')).toBe(3);
    expect(numberReply('２')).toBe(2);
    expect(numberReply('９')).toBe(9);
    for (const no of ['0', '０', '10', '1.', '第1个', 'a', '', '１２']) expect(numberReply(no)).toBeNull();
  });
});
