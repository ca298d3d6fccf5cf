import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Empty, Input, Spin } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BindPendingDto, LoginOptionsDto } from '@kefu/protocol';
import { identityApi } from '../api';
import { useSession } from '../../../app/session';
import { AuthError, AuthLayout } from './AuthLayout';
import { pendingStep, StepPanel, useFinishLogin, type PendingStep } from '../components/LoginFlow';
import { ProviderButtons } from '../components/ProviderButtons';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * /thirdLogin: where the provider sends the browser back (?code&state): a linked identity logs in (a
 * second step if the account has one), an unlinked one goes on to /thirdLogin/bind. Without a code it
 * lists the providers. /thirdLogin/bind links the identity to an account after its password.
 */
export default function ThirdLoginScreen() {
  const { t } = useTranslation();
  const bind = useLocation().pathname.endsWith('/bind');
  const status = useSession((s) => s.status);
  const finish = useFinishLogin();
  const [pending, setPending] = useState<PendingStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fail = (e: unknown) => {
    const step = pendingStep(e);
    if (step) setPending(step);
    else setError(message(e));
  };

  if (status === 'ready') return <Navigate to="/" replace />;
  const title = t(bind ? 'thirdLogin.bindTitle' : 'thirdLogin.title');
  return (
    <AuthLayout title={title}>
      <AuthError text={error} testId="third-login-error" />
      {pending ? (
        <StepPanel pending={pending} onDone={(r) => void finish(r)} onCancel={() => setPending(null)} />
      ) : bind ? (
        <BindForm onDone={finish} onError={fail} />
      ) : (
        <Callback onDone={finish} onError={fail} failed={error !== null} />
      )}
      <BackToLogin />
    </AuthLayout>
  );
}

function BackToLogin() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Button
      block
      type="link"
      style={{ marginTop: 12 }}
      data-testid="third-login-back"
      onClick={() => void navigate('/login')}
    >
      {t('register.backToLogin')}
    </Button>
  );
}

type Done = (r: { token: string; user: unknown }) => Promise<void>;

function Callback(props: { onDone: Done; onError: (e: unknown) => void; failed: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code');
  const state = params.get('state');
  const [options, setOptions] = useState<LoginOptionsDto | null>(null);
  // The code is single-use: one call even when effects run twice.
  const sent = useRef(false);
  // The page's handlers change each render; the effect runs once per code.
  const handlers = useRef(props);
  handlers.current = props;
  useEffect(() => {
    const onError = (e: unknown) => handlers.current.onError(e);
    if (!code || !state) {
      identityApi.options(params.get('orgi')).then(setOptions, onError);
      return;
    }
    if (sent.current) return;
    sent.current = true;
    identityApi.callback(code, state).then((r) => {
      if ('bind' in r)
        void navigate('/thirdLogin/bind', { replace: true, state: r satisfies BindPendingDto });
      else void handlers.current.onDone(r);
    }, onError);
  }, [code, state, navigate]);

  if (code && state)
    return props.failed ? null : (
      <div style={{ textAlign: 'center', padding: 16 }} data-testid="third-login-working">
        <Spin />
        <div style={{ marginTop: 12 }}>{t('thirdLogin.working')}</div>
      </div>
    );
  if (!options) return <Spin style={{ display: 'block', margin: '24px auto' }} />;
  if (options.providers.length === 0)
    return <Empty description={<span data-testid="third-login-none">{t('thirdLogin.none')}</span>} />;
  return (
    <>
      <p>{t('thirdLogin.choose')}</p>
      <ProviderButtons providers={options.providers} divider={false} />
    </>
  );
}

function BindForm(props: { onDone: Done; onError: (e: unknown) => void }) {
  const { t } = useTranslation();
  const pending = useLocation().state as BindPendingDto | null;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  if (!pending?.bind)
    return <Alert type="warning" showIcon title={t('thirdLogin.expired')} data-testid="third-bind-expired" />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!username.trim() || !password) return;
    setBusy(true);
    try {
      await props.onDone(
        await identityApi.bind({ ticket: pending.bind, username: username.trim(), password }),
      );
    } catch (err) {
      props.onError(err);
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="third-bind-form" noValidate>
      <p data-testid="third-bind-hint">
        {t('thirdLogin.bindHint', { provider: pending.provider, display: pending.display })}
      </p>
      <div style={{ marginBottom: 16 }}>
        <label htmlFor="bind-username" style={{ display: 'block', marginBottom: 6 }}>
          {t('login.username')}
        </label>
        <Input
          id="bind-username"
          data-testid="third-bind-username"
          prefix={<UserOutlined />}
          autoComplete="username"
          autoFocus
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
      </div>
      <div style={{ marginBottom: 20 }}>
        <label htmlFor="bind-password" style={{ display: 'block', marginBottom: 6 }}>
          {t('login.password')}
        </label>
        <Input.Password
          id="bind-password"
          data-testid="third-bind-password"
          prefix={<LockOutlined />}
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="third-bind-submit">
        {t('thirdLogin.bindSubmit')}
      </Button>
    </form>
  );
}
