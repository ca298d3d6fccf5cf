import { Tooltip, Typography } from 'antd';
import { ExclamationCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useDeliveries } from '../deliveries';

/** A platform message's delivery: nothing once sent, "sending", or "not delivered" with the reason. */
export function DeliveryMark({ id }: { id: string }) {
  const { t } = useTranslation();
  const d = useDeliveries((s) => s.byId[id]);
  if (!d || d.state === 'sent') return null;
  if (d.state === 'pending')
    return (
      <Typography.Text type="secondary" data-testid="message-delivery-pending">
        {t('channel.delivery.pending')}
      </Typography.Text>
    );
  return (
    <Tooltip title={d.detail}>
      <Typography.Text type="danger" data-testid="message-delivery-failed" data-error={d.error ?? ''}>
        <ExclamationCircleFilled /> {t('channel.delivery.failed')}: {d.error ? t(d.error) : ''}
      </Typography.Text>
    </Tooltip>
  );
}
