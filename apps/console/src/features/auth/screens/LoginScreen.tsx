import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { validate, type LoginOptionsDto } from '@kefu/protocol';
import { identityApi, login } from '../api';
import { useSession } from '../../../app/session';
import { rules } from '../../../lib/formRules';
import { AuthError, AuthLayout, AuthLink } from './AuthLayout';
import { pendingStep, StepPanel, useFinishLogin, type PendingStep } from '../components/LoginFlow';

// Loaded only when the tenant offers a provider: the login page is the first download.
const ProviderButtons = lazy(() =>
  import('../components/ProviderButtons').then((m) => ({ default: m.ProviderButtons })),
);

/** Only same-site paths are followed after login, never an absolute URL from the query string. */
const safeRedirect = (r: string | null) => (r && r.startsWith('/') && !r.startsWith('//') ? r : '/');

/**
 * Plain inputs instead of antd Form: the login page is the first download, and Form with its
 * validator engine would add ~40 KB gzip for two required fields.
 */
export default function LoginScreen() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const status = useSession((s) => s.status);
  const finish = useFinishLogin();
  // After /register: the new administrator's name, and a word that it worked.
  const registered = (useLocation().state as { registered?: string } | null)?.registered;
  const [username, setUsername] = useState(registered ?? '');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<PendingStep | null>(null);
  const [options, setOptions] = useState<LoginOptionsDto>({ register: false, providers: [] });
  const orgi = params.get('orgi');
  useEffect(() => {
    // Without the call (an old server, a network hiccup) the page is the plain password login.
    identityApi.options(orgi).then(setOptions, () => undefined);
  }, [orgi]);

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
      const step = pendingStep(err);
      if (step) setPending(step);
      else setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };

  if (pending)
    return (
      <AuthLayout title={t('login.title')}>
        <StepPanel pending={pending} onDone={(r) => void finish(r)} onCancel={() => setPending(null)} />
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
      <AuthError text={error} testId="login-error" />
      {registered && !error && (
        <Alert
          type="success"
          showIcon
          title={t('register.done', { username: registered })}
          data-testid="login-registered"
          style={{ marginBottom: 16 }}
        />
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
      {options.providers.length > 0 && (
        <Suspense fallback={null}>
          <ProviderButtons providers={options.providers} />
        </Suspense>
      )}
      {options.register && (
        <AuthLink to="/register" testId="login-register">
          {t('login.register')}
        </AuthLink>
      )}
    </AuthLayout>
  );
}
