import { describe, expect, it } from 'vitest';
import {
  QUALITY_ALLOT_CODE,
  QUALITY_CODE,
  QUALITY_INSPECT_CODE,
  QUALITY_LABEL_CODE,
  QUALITY_STAFF_CODE,
  isPermissionCode,
  qualityAppealEndSchema,
  qualitySaveSchema,
} from './index.js';

describe('quality contract', () => {
  it('names codes of the permission tree', () => {
    for (const c of [
      QUALITY_CODE,
      QUALITY_INSPECT_CODE,
      QUALITY_ALLOT_CODE,
      QUALITY_STAFF_CODE,
      QUALITY_LABEL_CODE,
    ])
      expect(isPermissionCode(c), c).toBe(true);
  });
  it('parses a save and an appeal end sent as a form', () => {
    const s = qualitySaveSchema.parse({
      id: 'q1',
      items: [{ labelid: 'l1', score: '3', messageids: 'm1,m2' }],
    });
    expect(s.items[0]).toEqual({ labelid: 'l1', score: 3, messageids: ['m1', 'm2'], comment: '' });
    expect(s.send).toBe(false);
    const e = qualityAppealEndSchema.safeParse({
      id: 'a',
      outcome: 'partly',
      items: '[{"labelid":"l","score":1}]',
    });
    expect(e.success && e.data.items).toEqual([{ labelid: 'l', score: 1 }]);
    expect(qualityAppealEndSchema.safeParse({ id: 'a', outcome: 'partly', items: '{oops' }).success).toBe(
      false,
    );
  });
});
