import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CallbackConfigDto } from '@kefu/protocol';

/** The push URL, Token and EncodingAESKey, each with a copy button, as the platform's console asks for them. */
export function CallbackFields({ cfg, testId }: { cfg: CallbackConfigDto; testId: string }) {
  const { t } = useTranslation();
  const copy = (v: string, key: string) => (
    <Typography.Text code copyable={{ text: v }} data-testid={`${testId}-${key}`}>
      {v}
    </Typography.Text>
  );
  return (
    <Descriptions size="small" column={1} bordered data-testid={testId}>
      <Descriptions.Item label={t('channel.callbackUrl')}>{copy(cfg.url, 'url')}</Descriptions.Item>
      <Descriptions.Item label={t('channel.token')}>{copy(cfg.token, 'token')}</Descriptions.Item>
      <Descriptions.Item label={t('channel.aeskey')}>{copy(cfg.aeskey, 'aeskey')}</Descriptions.Item>
    </Descriptions>
  );
}
