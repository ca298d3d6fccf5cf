import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from './AuthLayout';

/** Accounts are created by an administrator; there is no self-service sign-up endpoint. */
export default function RegisterScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AuthLayout title={t('register.title')}>
      <Result
        status="info"
        subTitle={t('register.invitationOnly')}
        extra={
          <Button type="primary" data-testid="register-back" onClick={() => void navigate('/login')}>
            {t('register.backToLogin')}
          </Button>
        }
      />
    </AuthLayout>
  );
}
