import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Alert, Button, Input, theme } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LOGIN_STEP_KEYS, validate, type LoginStepKey } from '@kefu/protocol';
import { login } from '../api';
import { storage } from '../../../lib/storage';
import { useSession } from '../../../app/session';
import { rules } from '../../../lib/formRules';
import { AuthLayout } from './AuthLayout';
import { RequestError } from '../../../lib/request';

// Two-factor / expired-password step (corporate security): its own chunk, loaded only when a login needs it.
const LoginStepForm = lazy(() => import('../../security/components/LoginStepForm'));

/** Only same-site paths are followed after login, never an absolute URL from the query string. */
const safeRedirect = (r: string | null) => (r && r.startsWith('/') && !r.startsWith('//') ? r : '/');

/**
 * Plain inputs instead of antd Form: the login page is the first download, and Form with its
 * validator engine would add ~40 KB gzip for two required fields.
 */
export default function LoginScreen() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const { token } = theme.useToken();
  const status = useSession((s) => s.status);
  const bootstrap = useSession((s) => s.bootstrap);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<{ step: LoginStepKey; ticket: string } | null>(null);

  if (status === 'ready') return <Navigate to={safeRedirect(params.get('redirect'))} replace />;

  const requiredText = (v: string) => (validate.required(v) ? rules.requiredText(i18n.language) : null);
  const userErr = touched ? requiredText(username) : null;
  const passErr = touched ? requiredText(password) : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (requiredText(username) || requiredText(password)) return;
    setBusy(true);
    setError(null);
    try {
      await finish(await login(username.trim(), password));
    } catch (err) {
      const key = err instanceof RequestError ? err.key : undefined;
      const ticket = err instanceof RequestError ? err.fields?.ticket : undefined;
      if (ticket && (LOGIN_STEP_KEYS as readonly string[]).includes(key ?? '')) {
        setPending({ step: key as LoginStepKey, ticket });
      } else setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };
  const finish = async (res: { token: string; user: unknown }) => {
    storage.set('token', res.token);
    storage.setJson('userInfo', res.user);
    await bootstrap();
  };

  if (pending)
    return (
      <AuthLayout title={t('login.title')}>
        <Suspense fallback={null}>
          <LoginStepForm
            step={pending.step}
            ticket={pending.ticket}
            onDone={(r) => void finish(r)}
            onCancel={() => setPending(null)}
          />
        </Suspense>
      </AuthLayout>
    );

  const field = (id: string, label: string, err: string | null, input: React.ReactNode) => (
    <div style={{ marginBottom: 20 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 6 }}>
        {label}
      </label>
      {input}
      {err && (
        <div role="alert" style={{ color: '#ff4d4f', fontSize: 13, marginTop: 4 }}>
          {err}
        </div>
      )}
    </div>
  );

  return (
    <AuthLayout title={t('login.title')}>
      {error && (
        <Alert type="error" showIcon title={error} data-testid="login-error" style={{ marginBottom: 16 }} />
      )}
      <form onSubmit={(e) => void submit(e)} data-testid="login-form" noValidate>
        {field(
          'login-username',
          t('login.username'),
          userErr,
          <Input
            id="login-username"
            data-testid="login-username"
            prefix={<UserOutlined />}
            autoComplete="username"
            autoFocus
            status={userErr ? 'error' : undefined}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />,
        )}
        {field(
          'login-password',
          t('login.password'),
          passErr,
          <Input.Password
            id="login-password"
            data-testid="login-password"
            prefix={<LockOutlined />}
            autoComplete="current-password"
            status={passErr ? 'error' : undefined}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />,
        )}
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </form>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16 }}>
        <Link
          to="/register"
          style={{ color: token.colorLink, textDecoration: 'none' }}
          data-testid="login-register"
        >
          {t('login.register')}
        </Link>
        <Link
          to="/thirdLogin"
          style={{ color: token.colorLink, textDecoration: 'none' }}
          data-testid="login-third"
        >
          {t('login.thirdLogin')}
        </Link>
      </div>
    </AuthLayout>
  );
}
