import { Divider, Form, Input, InputNumber, Select, Space, Switch, TreeSelect, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ROBOT_LIMITS, type KbTypeDto, type RobotDto } from '@kefu/protocol';
import { rules } from '../../../lib/formRules';
import { treeData } from '../../../lib/tree';
import type { RobotFields } from '../api';

/** The robot form as edited: keywords as lines. */
export type RobotFormValues = Omit<RobotFields, 'handoffKeywords'> & {
  name: string;
  handoffKeywords?: string;
  appids?: string[];
};

export const toRobotForm = (r: RobotDto): RobotFormValues => ({
  ...r,
  handoffKeywords: r.handoffKeywords.join('\n'),
});

export const fromRobotForm = ({
  appids: _a,
  handoffKeywords,
  ...v
}: RobotFormValues): RobotFields & { name: string } => ({
  ...v,
  handoffKeywords: (handoffKeywords ?? '')
    .split(/[\n,，]/)
    .map((s) => s.trim())
    .filter(Boolean),
});

/** Texts, matching and handoff, knowledge types and websites of a robot. */
export function RobotFormItems(props: { types: KbTypeDto[]; sites: Array<{ id: string; name: string }> }) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const text = (name: keyof RobotFormValues, max: number = ROBOT_LIMITS.text) => (
    <Form.Item name={name} label={t(`robot.${name}`)}>
      <Input.TextArea
        autoSize={{ minRows: 1, maxRows: 4 }}
        maxLength={max}
        data-testid={`robot-form-${name}`}
      />
    </Form.Item>
  );
  const threshold = (name: 'answerThreshold' | 'suggestThreshold') => (
    <Form.Item name={name} label={t(`robot.${name}`)}>
      <InputNumber min={0} max={1} step={0.05} data-testid={`robot-form-${name}`} />
    </Form.Item>
  );
  return (
    <>
      <Form.Item name="name" label={t('robot.name')} rules={[r.required]}>
        <Input maxLength={ROBOT_LIMITS.name} data-testid="robot-form-name" />
      </Form.Item>
      <Form.Item name="enabled" label={t('robot.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        {t('robot.sectionTexts')}
      </Divider>
      {text('welcome')}
      {text('fallback')}
      {text('suggestmsg', 100)}
      {text('handoffmsg')}
      <Form.Item name="avatar" label={t('robot.avatar')}>
        <Input maxLength={500} placeholder="https://" />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        {t('robot.sectionMatching')}
      </Divider>
      <Space size="large" wrap>
        {threshold('answerThreshold')}
        {threshold('suggestThreshold')}
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: -12 }}>
        {t('robot.thresholdHint')}
      </Typography.Paragraph>
      <Form.Item
        name="handoffFallbacks"
        label={t('robot.handoffFallbacks')}
        extra={t('robot.handoffFallbacksHint')}
      >
        <InputNumber min={0} max={ROBOT_LIMITS.maxFallbacks} />
      </Form.Item>
      <Form.Item
        name="handoffKeywords"
        label={t('robot.handoffKeywords')}
        extra={t('robot.handoffKeywordsHint')}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
      </Form.Item>
      <Form.Item name="handoffButton" label={t('robot.handoffButton')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        {t('robot.sectionScope')}
      </Divider>
      <Form.Item name="kbtypes" label={t('robot.kbtypes')} extra={t('robot.kbtypesHint')}>
        <TreeSelect multiple allowClear treeDefaultExpandAll treeData={treeData(props.types)} />
      </Form.Item>
      <Form.Item name="appids" label={t('robot.sites')} extra={t('robot.sitesHint')}>
        <Select
          mode="multiple"
          allowClear
          options={props.sites.map((s) => ({ value: s.id, label: s.name }))}
          data-testid="robot-form-sites"
        />
      </Form.Item>
    </>
  );
}
