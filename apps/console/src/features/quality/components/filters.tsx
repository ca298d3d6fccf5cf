import { DatePicker, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { datePresets, type Range } from '../../../lib/dates';
import { useAgentOptions, useInspectorOptions, useSkillOptions } from './options';

/** The filter fields the quality lists share (inside a FilterBar). */
export interface RangeFields {
  range?: Range | null;
  agentno?: string;
  organ?: string;
  inspector?: string;
}

/** Whole days: a picked end date includes its evening. */
export const rangeQuery = (v: RangeFields) => ({
  begin: v.range?.[0]?.startOf('day').valueOf(),
  end: v.range?.[1]?.endOf('day').valueOf(),
  agentno: v.agentno || undefined,
  organ: v.organ || undefined,
});

const W = { width: 160 };

export function RangeItem({ testId }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item name="range" label={t('qc.f.range')}>
      <DatePicker.RangePicker presets={datePresets(t)} data-testid={testId} />
    </Form.Item>
  );
}

export function AgentItem() {
  const { t } = useTranslation();
  const agents = useAgentOptions();
  return (
    <Form.Item name="agentno" label={t('qc.f.agent')}>
      <Select allowClear showSearch optionFilterProp="label" style={W} options={agents} />
    </Form.Item>
  );
}

export function OrganItem() {
  const { t } = useTranslation();
  const skills = useSkillOptions();
  return (
    <Form.Item name="organ" label={t('qc.f.organ')}>
      <Select allowClear showSearch optionFilterProp="label" style={W} options={skills} />
    </Form.Item>
  );
}

export function InspectorItem() {
  const { t } = useTranslation();
  const inspectors = useInspectorOptions();
  return (
    <Form.Item name="inspector" label={t('qc.f.inspector')}>
      <Select allowClear showSearch optionFilterProp="label" style={W} options={inspectors} />
    </Form.Item>
  );
}

/** Options of an enum with texts under `prefix` (statuses, appeal states, rules). */
export const enumOptions = (t: (k: string) => string, values: readonly string[], prefix: string) =>
  values.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }));
