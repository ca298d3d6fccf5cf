import { useState } from 'react';
import { Alert, Button, Card, Input, Modal, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TotpSetupDto } from '@kefu/protocol';
import { securityApi } from '../api';
import { notify } from '../../../lib/notify';
import { RecoveryCodes, TotpEnrol } from './TotpEnrol';

/** Two-factor authentication: its state, turning it on (QR, code, recovery codes) and off (a code). */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const me = useQuery({ queryKey: ['security-me'], queryFn: ({ signal }) => securityApi.me(signal) });
  const [setup, setSetup] = useState<TotpSetupDto | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [code, setCode] = useState('');
  const on = me.data?.totp ?? false;

  const start = async () => setSetup(await securityApi.totpSetup());
  const confirm = async (c: string) => {
    const r = await securityApi.totpEnable(c);
    setSetup(null);
    setRecovery(r.recovery);
    void me.refetch();
  };
  const disable = async () => {
    await securityApi.totpDisable(code.trim());
    setDisabling(false);
    setCode('');
    notify.success(t('common.done'));
    void me.refetch();
  };

  return (
    <Card
      title={
        <Space>
          {t('sec.totp')}
          <Tag color={on ? 'green' : 'default'} data-testid="totp-state">
            {on ? t('sec.totp.on') : t('sec.totp.off')}
          </Tag>
        </Space>
      }
      data-testid="security-totp"
      extra={
        on ? (
          <Button
            disabled={me.data?.totpRequired}
            onClick={() => setDisabling(true)}
            data-testid="totp-disable"
          >
            {t('sec.totp.disable')}
          </Button>
        ) : (
          <Button type="primary" onClick={() => void start()} data-testid="totp-enable">
            {t('sec.totp.enable')}
          </Button>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('sec.totpDesc')}</Typography.Paragraph>
      {me.data?.totpRequired && <Alert type="info" showIcon message={t('sec.totp.required')} />}
      {setup && <TotpEnrol setup={setup} onCode={confirm} testId="totp-enrol" />}
      {recovery && <RecoveryCodes codes={recovery} />}
      <Modal
        open={disabling}
        title={t('sec.totp.disable')}
        onCancel={() => setDisabling(false)}
        onOk={() => void disable()}
        okButtonProps={{ disabled: !code.trim(), 'data-testid': 'totp-disable-submit' }}
        okText={t('sec.totp.disable')}
        cancelText={t('common.cancel')}
      >
        <Typography.Paragraph>{t('sec.totp.disableHint')}</Typography.Paragraph>
        <Input value={code} onChange={(e) => setCode(e.target.value)} data-testid="totp-disable-code" />
      </Modal>
    </Card>
  );
}
