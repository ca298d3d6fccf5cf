import { Button } from 'antd';
import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';

/**
 * A screen that throws (or a chunk that never loads) shows this instead of a blank page. Plain
 * markup on purpose: it sits in the entry chunk, where antd's Result images would weigh too much.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  return (
    <div role="alert" style={{ padding: '120px 24px', textAlign: 'center' }}>
      <div style={{ fontSize: 18, marginBottom: 16 }}>
        {error instanceof Error ? error.message : String(error)}
      </div>
      <Button type="primary" onClick={() => window.location.assign('/')}>
        {t('common.backHome')}
      </Button>
    </div>
  );
}
