import { DatePicker, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { QUALITY_APPEAL_STATES, QUALITY_STATUSES } from '@kefu/protocol';
import { datePresets, type Range } from '../../../lib/dates';
import { rules } from '../../../lib/formRules';
import { useAgentOptions, useInspectorOptions, useSkillOptions } from './options';

/** The filter fields the quality lists share (inside a FilterBar). */
export interface RangeFields {
  range?: Range | null;
  agentno?: string;
  organ?: string;
  inspector?: string;
}

/** Whole days: a picked end date includes its evening. */
export const rangeQuery = (v: Pick<RangeFields, 'range'> & Partial<RangeFields>) => ({
  begin: v.range?.[0]?.startOf('day').valueOf(),
  end: v.range?.[1]?.endOf('day').valueOf(),
  agentno: v.agentno || undefined,
  organ: v.organ || undefined,
});

/** Options of an enum with texts under `prefix` (statuses, appeal states, rules). */
export const enumOptions = (t: (k: string) => string, values: readonly string[], prefix: string) =>
  values.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }));

type Options = Array<{ value: string | boolean; label: string }>;

/** One clearable, searchable select of a filter. */
export function SelectItem(props: { name: string; label: string; options: Options; width?: number }) {
  return (
    <Form.Item name={props.name} label={props.label}>
      <Select
        allowClear
        showSearch
        optionFilterProp="label"
        style={{ width: props.width ?? 160 }}
        options={props.options}
        data-testid={`qc-f-${props.name}`}
      />
    </Form.Item>
  );
}

export function RangeItem() {
  const { t } = useTranslation();
  return (
    <Form.Item name="range" label={t('qc.f.range')}>
      <DatePicker.RangePicker presets={datePresets(t)} />
    </Form.Item>
  );
}

export function AgentItem() {
  const { t } = useTranslation();
  return <SelectItem name="agentno" label={t('qc.f.agent')} options={useAgentOptions()} />;
}

export function OrganItem() {
  const { t } = useTranslation();
  return <SelectItem name="organ" label={t('qc.f.organ')} options={useSkillOptions()} />;
}

export function InspectorItem() {
  const { t } = useTranslation();
  return <SelectItem name="inspector" label={t('qc.f.inspector')} options={useInspectorOptions()} />;
}

export function StatusItem() {
  const { t } = useTranslation();
  return (
    <SelectItem
      name="status"
      label={t('qc.col.status')}
      width={120}
      options={enumOptions(t, QUALITY_STATUSES, 'qc.status')}
    />
  );
}

export function AppealItem() {
  const { t } = useTranslation();
  return (
    <SelectItem
      name="appeal"
      label={t('qc.col.appeal')}
      width={120}
      options={enumOptions(t, QUALITY_APPEAL_STATES, 'qc.appeal')}
    />
  );
}

/** The inspectors chosen for an assignment (required; dealt round-robin). */
export function InspectorsItem(props: { testId: string; enabled?: boolean }) {
  const { t, i18n } = useTranslation();
  const inspectors = useInspectorOptions(props.enabled ?? true);
  return (
    <Form.Item
      name="inspectors"
      label={t('qc.f.inspectors')}
      rules={[rules(i18n.language).required]}
      extra={t('qc.allot.rr')}
    >
      <Select mode="multiple" optionFilterProp="label" options={inspectors} data-testid={props.testId} />
    </Form.Item>
  );
}
