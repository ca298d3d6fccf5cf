import { Form, InputNumber, Radio, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { DISTRIBUTIONS } from '@kefu/protocol';
import { SessionConfigForm, rangeRule } from './SessionConfigForm';

const FIELDS = ['lastagent', 'distribution', 'maxusers'] as const;

/** /setup/distribution (A09_A03_A02): last-agent preference, strategy, default seats. */
export default function DistributionScreen() {
  const { t } = useTranslation();
  return (
    <SessionConfigForm
      section="allocation"
      fields={FIELDS}
      title={t('sc.allocation.title')}
      description={t('sc.allocation.desc')}
      testid="sc-allocation"
    >
      <Form.Item name="lastagent" label={t('sc.lastagent')} valuePropName="checked">
        <Switch data-testid="sc-lastagent" />
      </Form.Item>
      <Form.Item name="distribution" label={t('sc.distribution')}>
        <Radio.Group data-testid="sc-distribution">
          <Space direction="vertical">
            {DISTRIBUTIONS.map((d) => (
              <Radio key={d} value={d} data-testid={`sc-distribution-${d}`}>
                {t(`sc.distribution.${d}`)}
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      </Form.Item>
      <Form.Item name="maxusers" label={t('sc.maxusers')} rules={[rangeRule(t, 1, 100)]}>
        <InputNumber min={1} max={100} precision={0} data-testid="sc-maxusers" />
      </Form.Item>
    </SessionConfigForm>
  );
}
