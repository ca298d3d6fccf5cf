import { useState } from 'react';
import { Button, Card, Form, Input, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { updatePassword } from '../../auth/api';
import { rules } from '../../../lib/formRules';
import { applyFieldErrors } from '../../../lib/formErrors';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../app/session';
import { securityApi } from '../api';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { SessionsCard } from '../components/SessionsCard';
import { TwoFactorCard } from '../components/TwoFactorCard';
import { IdentitiesCard } from '../components/IdentitiesCard';

interface Fields {
  oldpassword: string;
  password: string;
  confirm: string;
}

/** /setup/personaSecurity: change one's own password; the server revokes every token, so log in again. */
export default function PersonaSecurityScreen() {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const r = rules(i18n.language);
  const expire = useSession((s) => s.expire);
  const [busy, setBusy] = useState(false);
  const me = useQuery({ queryKey: ['security-me'], queryFn: ({ signal }) => securityApi.me(signal) });
  const policy = me.data?.policy;

  const submit = async (v: Fields) => {
    setBusy(true);
    try {
      await updatePassword(v.oldpassword, v.password);
      notify.success(t('security.relogin'));
      expire();
    } catch (e) {
      applyFieldErrors(form, e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%', maxWidth: 860 }}>
      <Card title={t('security.title')} style={{ maxWidth: 560 }} data-testid="security-screen">
        <Form<Fields> form={form} layout="vertical" onFinish={submit} scrollToFirstError>
          <Form.Item name="oldpassword" label={t('security.oldPassword')} rules={[r.required]}>
            <Input.Password data-testid="security-old" autoComplete="current-password" />
          </Form.Item>
          <NewPasswordFields
            label={t('security.newPassword')}
            confirmLabel={t('security.confirmPassword')}
            policy={policy}
            testIds={{ password: 'security-new', confirm: 'security-confirm' }}
          />
          <Button type="primary" htmlType="submit" loading={busy} data-testid="security-submit">
            {t('security.submit')}
          </Button>
        </Form>
      </Card>
      <TwoFactorCard />
      <SessionsCard />
      <IdentitiesCard />
    </Space>
  );
}
