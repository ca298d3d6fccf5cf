import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function StatusScreen({ status }: { status: 401 | 404 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      style={{ paddingTop: 120 }}
      status={status === 401 ? '403' : '404'}
      title={t(`page.${status}.title`)}
      subTitle={t(`page.${status}.desc`)}
      extra={
        <Button
          type="primary"
          data-testid="status-home"
          onClick={() => void navigate('/', { replace: true })}
        >
          {t('common.backHome')}
        </Button>
      }
    />
  );
}
