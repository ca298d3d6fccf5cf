import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { KbItemDto } from '@kefu/protocol';
import { toFields, toFormValues } from './components/ItemFormItems';

const item: KbItemDto = {
  id: 'i',
  typeid: 't',
  typename: '售后',
  question: '如何退货？',
  similar: ['怎么退货', '退货流程'],
  answer: 'A',
  enabled: true,
  begintime: null,
  endtime: null,
  active: true,
  topics: [{ id: 'p', name: '物流' }],
  hits: 0,
  creater: '',
  createtime: 0,
  updatetime: 0,
};

describe('knowledge item form', () => {
  it('similar questions are lines; the validity is whole days of the editor; blank lines go', () => {
    const v = toFormValues(item);
    expect(v.similar).toBe('怎么退货\n退货流程');
    expect(v.validity).toBeNull();
    const f = toFields({
      ...v,
      similar: '怎么退货\n\n 退货流程 \n',
      validity: [dayjs('2025-11-01T15:00:00'), dayjs('2025-11-11T09:00:00')],
    });
    expect(f.similar).toEqual(['怎么退货', '退货流程']);
    expect(f.topics).toEqual(['p']);
    expect(f.begintime).toBe(dayjs('2025-11-01T00:00:00').valueOf());
    expect(f.endtime).toBe(dayjs('2025-11-11T23:59:59.999').valueOf());
    expect(toFields({ ...v, validity: null })).toMatchObject({ begintime: null, endtime: null, typeid: 't' });
    expect(toFormValues(null, 'x')).toMatchObject({ typeid: 'x', enabled: true });
  });
});
