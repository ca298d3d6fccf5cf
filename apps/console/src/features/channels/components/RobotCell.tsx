import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A channel account's robot in a list (blank: none). */
export function RobotCell({ name }: { name: string }) {
  const { t } = useTranslation();
  return name ? (
    <Tag color="purple" data-testid="channel-robot-cell">
      {name}
    </Tag>
  ) : (
    <Typography.Text type="secondary">{t('channel.noRobot')}</Typography.Text>
  );
}
