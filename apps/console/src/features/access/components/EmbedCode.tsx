import { Alert, Button, Input, Modal, Space, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccessPointDto } from '@kefu/protocol';
import { accessApi, copyText } from '../api';
import { notify } from '../../../lib/notify';

/** The embed code of an access point with a copy button ('copy succeeded'). */
export function EmbedCode(props: { ap: AccessPointDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { ap } = props;
  const code = useQuery({
    queryKey: ['access', 'code', ap?.id],
    queryFn: ({ signal }) => accessApi.code(ap?.id ?? '', signal),
    enabled: !!ap,
  });
  const copy = async () => {
    if (code.data && (await copyText(code.data.code))) notify.success(t('access.copied'));
  };
  return (
    <Modal
      open={!!ap}
      title={`${t('access.code')} · ${ap?.name ?? ''}`}
      onCancel={props.onClose}
      footer={
        <Space>
          <Button onClick={props.onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            icon={<CopyOutlined />}
            data-testid="access-copy"
            onClick={() => void copy()}
          >
            {t('access.copy')}
          </Button>
        </Space>
      }
      width={640}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>{t('access.codeHint')}</Typography.Text>
        <Input.TextArea
          data-testid="access-code"
          readOnly
          autoSize
          value={code.data?.code ?? ''}
          style={{ fontFamily: 'monospace' }}
        />
        <Alert type="info" showIcon message={`${t('access.appid')}: ${ap?.id ?? ''}`} />
      </Space>
    </Modal>
  );
}
