import { useState } from 'react';
import { Button, Input, QRCode, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TotpSetupDto } from '@kefu/protocol';

/** The QR code (and the key, for typing in) of an authenticator enrolment, and the code that confirms it. */
export function TotpEnrol(props: {
  setup: TotpSetupDto;
  onCode: (code: string) => Promise<unknown>;
  testId: string;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      await props.onCode(code.trim());
    } catch {
      // shown by the caller (the login step's alert, or the request layer's toast)
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid={props.testId}>
      <Typography.Text>{t('sec.totp.scan')}</Typography.Text>
      <Space align="start" size="large" wrap>
        <QRCode value={props.setup.uri} size={168} data-testid={`${props.testId}-qr`} />
        <Typography.Text
          code
          copyable
          data-testid={`${props.testId}-secret`}
          style={{ wordBreak: 'break-all' }}
        >
          {props.setup.secret}
        </Typography.Text>
      </Space>
      <Space.Compact style={{ width: 280 }}>
        <Input
          placeholder={t('sec.totp.code')}
          value={code}
          maxLength={6}
          inputMode="numeric"
          onChange={(e) => setCode(e.target.value)}
          onPressEnter={() => void submit()}
          data-testid={`${props.testId}-code`}
        />
        <Button
          type="primary"
          loading={busy}
          disabled={code.trim().length !== 6}
          onClick={() => void submit()}
          data-testid={`${props.testId}-confirm`}
        >
          {t('sec.totp.confirm')}
        </Button>
      </Space.Compact>
    </Space>
  );
}

/** Recovery codes, shown once after an enrolment. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" data-testid="totp-recovery">
      <Typography.Text strong>{t('sec.totp.recovery')}</Typography.Text>
      <Typography.Text type="secondary">{t('sec.totp.recoveryHint')}</Typography.Text>
      <Typography.Paragraph
        copyable={{ text: codes.join('\n') }}
        style={{ fontFamily: 'monospace', columns: 2, margin: 0 }}
      >
        {codes.map((c) => (
          <div key={c}>{c}</div>
        ))}
      </Typography.Paragraph>
    </Space>
  );
}
