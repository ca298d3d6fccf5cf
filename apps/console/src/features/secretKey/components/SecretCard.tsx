import { useState } from 'react';
import { Alert, Button, Card, Modal, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { keyApi } from '../api';
import { useConfirmAction } from '../../../lib/confirm';
import { formatTime } from '../../../lib/time';

/** The tenant's API secret: when and by whom it was generated, rotation, and the one-time reveal. */
export function SecretCard() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const info = useQuery({ queryKey: ['key-info'], queryFn: ({ signal }) => keyApi.info(signal) });
  const [revealed, setRevealed] = useState<string | null>(null);
  const generate = async () => {
    const r = await keyApi.rotate();
    setRevealed(r.secret);
    void info.refetch();
  };
  const has = !!info.data;
  return (
    <Card
      title={t('key.title')}
      data-testid="key-secret"
      extra={
        <Button
          type={has ? 'default' : 'primary'}
          danger={has}
          data-testid="key-generate"
          onClick={() => (has ? confirm(t('key.rotateConfirm'), generate) : void generate())}
        >
          {has ? t('key.rotate') : t('key.generate')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('key.desc')}</Typography.Paragraph>
      {info.data ? (
        <Space direction="vertical" size={4}>
          <span>
            {t('key.current')}:{' '}
            <Typography.Text code data-testid="key-prefix">{`${info.data.prefix}…`}</Typography.Text>
          </span>
          <Typography.Text type="secondary">
            {t('key.createdAt', { time: formatTime(info.data.createtime), who: info.data.creater })}
          </Typography.Text>
        </Space>
      ) : (
        <Typography.Text type="secondary">{t('key.none')}</Typography.Text>
      )}
      <Modal
        open={revealed !== null}
        title={t('key.revealTitle')}
        onCancel={() => setRevealed(null)}
        onOk={() => setRevealed(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
        okText={t('common.ok')}
      >
        <Alert type="warning" showIcon message={t('key.revealHint')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph code copyable data-testid="key-revealed" style={{ wordBreak: 'break-all' }}>
          {revealed}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
