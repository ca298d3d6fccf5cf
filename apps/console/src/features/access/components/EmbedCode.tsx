import { Alert, Button, Input, Modal, Space, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccessPointDto } from '@kefu/protocol';
import { accessApi, copyText } from '../api';
import { notify } from '../../../lib/notify';

/** The embed code of an access point and a copy action ('copy succeeded'). */
function useEmbedCode(ap: AccessPointDto | null) {
  const { t } = useTranslation();
  const code = useQuery({
    queryKey: ['access', 'code', ap?.id],
    queryFn: ({ signal }) => accessApi.code(ap?.id ?? '', signal),
    enabled: !!ap,
  });
  const copy = async () => {
    if (code.data && (await copyText(code.data.code))) notify.success(t('access.copied'));
  };
  return { text: code.data?.code ?? '', copy };
}

function CopyButton({ onCopy }: { onCopy: () => void }) {
  const { t } = useTranslation();
  return (
    <Button type="primary" icon={<CopyOutlined />} data-testid="access-copy" onClick={onCopy}>
      {t('access.copy')}
    </Button>
  );
}

function CodeBody({ ap, text }: { ap: AccessPointDto | null; text: string }) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text>{t('access.codeHint')}</Typography.Text>
      <Input.TextArea
        data-testid="access-code"
        readOnly
        autoSize
        value={text}
        style={{ fontFamily: 'monospace' }}
      />
      <Alert type="info" showIcon message={`${t('access.appid')}: ${ap?.id ?? ''}`} />
    </Space>
  );
}

/** The embed code in a dialog, opened from the website-access list. */
export function EmbedCode(props: { ap: AccessPointDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { ap } = props;
  const code = useEmbedCode(ap);
  return (
    <Modal
      open={!!ap}
      title={`${t('access.code')} · ${ap?.name ?? ''}`}
      onCancel={props.onClose}
      footer={
        <Space>
          <Button onClick={props.onClose}>{t('common.cancel')}</Button>
          <CopyButton onCopy={() => void code.copy()} />
        </Space>
      }
      width={640}
    >
      <CodeBody ap={ap} text={code.text} />
    </Modal>
  );
}

/** The embed code on its own page (/setup/accessCode?appid=). */
export function EmbedCodePanel({ ap }: { ap: AccessPointDto }) {
  const code = useEmbedCode(ap);
  return (
    <Space direction="vertical" style={{ width: '100%', maxWidth: 760 }}>
      <CodeBody ap={ap} text={code.text} />
      <CopyButton onCopy={() => void code.copy()} />
    </Space>
  );
}
