import { useEffect, useState } from 'react';
import { Alert, Button, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LoginStepKey, TotpSetupDto } from '@kefu/protocol';
import { securityApi } from '../api';
import { RequestError } from '../../../lib/request';
import { RecoveryCodes, TotpEnrol } from './TotpEnrol';
import { PasswordStrength } from './PasswordStrength';

export interface LoginDone {
  token: string;
  user: unknown;
}

/**
 * What a login still needs after the password (the server's step key and ticket): a code of the
 * authenticator (or a recovery code), an enrolment (QR code, then a code; the recovery codes are shown
 * before going on), or a new password. Loaded only when a login needs it.
 */
export default function LoginStepForm(props: {
  step: LoginStepKey;
  ticket: string;
  onDone: (r: LoginDone) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [step, setStep] = useState<LoginStepKey>(props.step);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [enrol, setEnrol] = useState<TotpSetupDto | null>(null);
  const [done, setDone] = useState<(LoginDone & { recovery: string[] }) | null>(null);

  const send = async (b: { code?: string; password?: string }) => {
    setBusy(true);
    setError(null);
    try {
      const r = await securityApi.step({ ticket: props.ticket, ...b });
      if ('enrol' in r) setEnrol(r.enrol);
      else if (r.recovery) setDone({ token: r.token, user: r.user, recovery: r.recovery });
      else props.onDone(r);
    } catch (e) {
      const next = e instanceof RequestError ? e.key : undefined;
      if (next === 'totp_required' || next === 'totp_enrol_required') {
        setStep(next);
        setValue('');
      } else if (next === 'ticket_invalid') props.onCancel();
      setError(e instanceof Error ? e.message : String(e));
      throw e;
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    if (step === 'totp_enrol_required' && !enrol) void send({}).catch(() => undefined);
    // Only when the step becomes an enrolment (send is a new function every render).
  }, [step]);

  if (done)
    return (
      <Space direction="vertical" style={{ width: '100%' }} data-testid="login-step-done">
        <RecoveryCodes codes={done.recovery} />
        <Button type="primary" block onClick={() => props.onDone(done)} data-testid="login-step-continue">
          {t('common.ok')}
        </Button>
      </Space>
    );
  return (
    <Space
      direction="vertical"
      size="middle"
      style={{ width: '100%' }}
      data-testid="login-step"
      data-step={step}
    >
      {error && <Alert type="error" showIcon message={error} data-testid="login-step-error" />}
      {step === 'totp_enrol_required' ? (
        <>
          <Typography.Text>{t('sec.login.enrol')}</Typography.Text>
          {enrol && <TotpEnrol setup={enrol} onCode={(code) => send({ code })} testId="login-enrol" />}
        </>
      ) : (
        <>
          <Typography.Text>
            {t(step === 'password_expired' ? 'sec.login.expired' : 'sec.login.totp')}
          </Typography.Text>
          {step === 'password_expired' ? (
            <>
              <Input.Password
                value={value}
                autoComplete="new-password"
                onChange={(e) => setValue(e.target.value)}
                data-testid="login-step-password"
              />
              <PasswordStrength password={value} />
            </>
          ) : (
            <Input
              value={value}
              autoFocus
              autoComplete="one-time-code"
              onChange={(e) => setValue(e.target.value)}
              onPressEnter={() => void send({ code: value.trim() }).catch(() => undefined)}
              data-testid="login-step-code"
            />
          )}
          <Button
            type="primary"
            block
            loading={busy}
            disabled={!value.trim()}
            data-testid="login-step-submit"
            onClick={() =>
              void send(step === 'password_expired' ? { password: value } : { code: value.trim() }).catch(
                () => undefined,
              )
            }
          >
            {t('login.submit')}
          </Button>
        </>
      )}
      <Button type="link" block onClick={props.onCancel} data-testid="login-step-cancel">
        {t('common.cancel')}
      </Button>
    </Space>
  );
}
