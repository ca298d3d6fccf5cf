import { Form, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SENSITIVE_ACTIONS } from '@kefu/protocol';

/** The action radio with what each action does. */
export function ActionField({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item name="action" label={t('sw.action')}>
      <Radio.Group data-testid={testId}>
        <Space direction="vertical">
          {SENSITIVE_ACTIONS.map((a) => (
            <Radio key={a} value={a} data-testid={`${testId}-${a}`}>
              {t(`sw.action.${a}`)}
              <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>
                {t(`sw.actionHint.${a}`)}
              </Typography.Text>
            </Radio>
          ))}
        </Space>
      </Radio.Group>
    </Form.Item>
  );
}
