import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';

/** The robot that answers a channel account's users first (cleared: none, they go to agents at once). */
export function RobotField({
  robots,
  testId,
}: {
  robots: Array<{ id: string; name: string }>;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item name="robotid" label={t('channel.robot')} extra={t('channel.robotHint')}>
      <Select
        allowClear
        placeholder={t('channel.noRobot')}
        data-testid={testId}
        options={robots.map((r) => ({ value: r.id, label: r.name }))}
      />
    </Form.Item>
  );
}
