import { useEffect, useState } from 'react';
import { Button, Form, Input, Result, Spin, theme } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SECURITY_POLICY_DEFAULT } from '@kefu/protocol';
import { identityApi } from '../api';
import { rules } from '../../../lib/formRules';
import { RequestError } from '../../../lib/request';
import { showFieldErrors } from '../../access/components/fieldErrors';
import { NewPasswordFields } from '../../security/components/NewPasswordFields';
import { AuthError, AuthLayout, AuthLink } from './AuthLayout';

interface Fields {
  company: string;
  username: string;
  password: string;
  confirm: string;
  email?: string;
  mobile?: string;
}

/**
 * /register: a company opens a tenant of its own with its first administrator, when the operator turned
 * self-registration on (KEFU_SELF_REGISTER); otherwise accounts come from an administrator.
 */
export default function RegisterScreen() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const r = rules(i18n.language);
  const [form] = Form.useForm<Fields>();
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    identityApi.options().then(
      (o) => setEnabled(o.register),
      () => setEnabled(false),
    );
  }, []);

  const back = (
    <Button type="primary" data-testid="register-back" onClick={() => void navigate('/login')}>
      {t('register.backToLogin')}
    </Button>
  );
  if (enabled === null)
    return (
      <AuthLayout title={t('register.title')}>
        <Spin style={{ display: 'block', margin: '24px auto' }} />
      </AuthLayout>
    );
  if (!enabled)
    return (
      <AuthLayout title={t('register.title')}>
        <Result status="info" subTitle={t('register.invitationOnly')} extra={back} />
      </AuthLayout>
    );

  const submit = async (v: Fields) => {
    setBusy(true);
    setError(null);
    try {
      const done = await identityApi.register({
        company: v.company,
        username: v.username,
        password: v.password,
        email: v.email || undefined,
        mobile: v.mobile || undefined,
        // The new company's department and roles are named in the language it registered in.
        language: i18n.language === 'en' ? 'en' : 'zh',
      });
      // The tenant's own login address: it offers the providers its administrator will configure.
      void navigate(`/login?orgi=${encodeURIComponent(done.orgi)}`, { state: { registered: done.username } });
    } catch (e) {
      // Field errors go under their fields; the rest (switched off, too many tries) above the form.
      if (e instanceof RequestError && e.fields && Object.keys(e.fields).length) showFieldErrors(form, e);
      else setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={t('register.title')}>
      <p style={{ marginTop: -8, color: token.colorTextSecondary }}>{t('register.hint')}</p>
      <AuthError text={error} testId="register-error" />
      <Form<Fields>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => void submit(v)}
        data-testid="register-form"
      >
        <Form.Item name="company" label={t('register.company')} rules={[r.required]}>
          <Input data-testid="register-company" maxLength={50} autoFocus />
        </Form.Item>
        <Form.Item name="username" label={t('register.adminUsername')} rules={[r.required]}>
          <Input data-testid="register-username" maxLength={32} autoComplete="username" />
        </Form.Item>
        <NewPasswordFields
          label={t('register.password')}
          confirmLabel={t('register.confirm')}
          policy={SECURITY_POLICY_DEFAULT}
          testIds={{ password: 'register-password', confirm: 'register-confirm' }}
        />
        <Form.Item name="email" label={t('register.email')}>
          <Input data-testid="register-email" type="email" maxLength={255} />
        </Form.Item>
        <Form.Item name="mobile" label={t('register.mobile')}>
          <Input data-testid="register-mobile" maxLength={20} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="register-submit">
          {t('register.submit')}
        </Button>
      </Form>
      <AuthLink to="/login" testId="register-login">
        {t('register.haveAccount')}
      </AuthLink>
    </AuthLayout>
  );
}
