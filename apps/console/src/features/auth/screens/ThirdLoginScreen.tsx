import { Button, Empty } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from './AuthLayout';

/**
 * Third-party login (and its /bind variant). No provider is configured on the server yet, so the
 * page says so; providers will be listed here once the server exposes them.
 */
export default function ThirdLoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const bind = useLocation().pathname.endsWith('/bind');
  return (
    <AuthLayout title={t(bind ? 'thirdLogin.bindTitle' : 'thirdLogin.title')}>
      <Empty description={<span data-testid="third-login-none">{t('thirdLogin.none')}</span>} />
      <Button
        block
        style={{ marginTop: 16 }}
        data-testid="third-login-back"
        onClick={() => void navigate('/login')}
      >
        {t('register.backToLogin')}
      </Button>
    </AuthLayout>
  );
}
