import { DatePicker, Form, Input, Switch, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { KB_LIMITS, type KbItemDto, type KbTypeDto, type TopicDto } from '@kefu/protocol';
import type { KbItemFields } from '../api';
import { RichTextInput } from '../../../components/RichTextInput';
import { rules } from '../../../lib/formRules';
import { treeData } from '../../../lib/tree';

/** The item form as the user edits it (similar questions as lines, validity as a date range). */
export interface ItemFormValues {
  typeid?: string;
  question: string;
  similar?: string;
  answer: string;
  enabled: boolean;
  validity?: [Dayjs | null, Dayjs | null] | null;
  topics?: string[];
}

export const toFormValues = (i: KbItemDto | null, typeid?: string): ItemFormValues =>
  i
    ? {
        typeid: i.typeid || undefined,
        question: i.question,
        similar: i.similar.join('\n'),
        answer: i.answer,
        enabled: i.enabled,
        validity:
          i.begintime || i.endtime
            ? [i.begintime ? dayjs(i.begintime) : null, i.endtime ? dayjs(i.endtime) : null]
            : null,
        topics: i.topics.map((x) => x.id),
      }
    : { typeid: typeid || undefined, question: '', answer: '', enabled: true };

/** Dates are whole days of the editor's zone: from the first day's start to the last day's end. */
export const toFields = (v: ItemFormValues): KbItemFields => ({
  typeid: v.typeid ?? null,
  question: v.question,
  similar: (v.similar ?? '')
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean),
  answer: v.answer,
  enabled: v.enabled,
  begintime: v.validity?.[0]?.startOf('day').valueOf() ?? null,
  endtime: v.validity?.[1]?.endOf('day').valueOf() ?? null,
  topics: v.topics ?? [],
});

export function ItemFormItems({ types, topics }: { types: KbTypeDto[]; topics: TopicDto[] }) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  return (
    <>
      <Form.Item name="typeid" label={t('kb.type')}>
        <TreeSelect allowClear treeDefaultExpandAll treeData={treeData(types)} data-testid="kb-form-type" />
      </Form.Item>
      <Form.Item name="question" label={t('kb.question')} rules={[r.required]}>
        <Input maxLength={KB_LIMITS.question} data-testid="kb-form-question" />
      </Form.Item>
      <Form.Item name="similar" label={t('kb.similar')} extra={t('kb.similarHint')}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} data-testid="kb-form-similar" />
      </Form.Item>
      <Form.Item name="answer" label={t('kb.answer')} extra={t('kb.answerHint')} rules={[r.required]}>
        <RichTextInput maxLength={KB_LIMITS.answer} testId="kb-form-answer" />
      </Form.Item>
      <Form.Item name="enabled" label={t('kb.enabled')} valuePropName="checked">
        <Switch data-testid="kb-form-enabled" />
      </Form.Item>
      <Form.Item name="validity" label={t('kb.validity')}>
        <DatePicker.RangePicker allowEmpty={[true, true]} />
      </Form.Item>
      <Form.Item name="topics" label={t('kb.topic')}>
        <TreeSelect
          multiple
          allowClear
          treeDefaultExpandAll
          treeData={treeData(topics.map((x) => ({ ...x, parentid: x.parentid ?? '' })))}
        />
      </Form.Item>
    </>
  );
}
