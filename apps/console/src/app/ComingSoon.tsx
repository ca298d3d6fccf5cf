import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useSession } from './session';
import { matchRoute } from './menu';

/** Permitted routes whose screens are not built yet: say so plainly instead of faking a feature. */
export default function ComingSoon() {
  const { t } = useTranslation();
  const routes = useSession((s) => s.routes);
  const { pathname } = useLocation();
  const trail = matchRoute(routes, pathname);
  const name = trail.length ? t(trail[trail.length - 1].title) : pathname;
  return (
    <div data-testid="coming-soon" style={{ padding: '96px 24px', background: '#fff', borderRadius: 8 }}>
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <>
            <div style={{ fontSize: 18, fontWeight: 500, marginBottom: 8 }}>{t('common.comingSoon')}</div>
            <div style={{ color: '#8c8c8c' }}>{t('common.comingSoonDesc', { name })}</div>
          </>
        }
      />
    </div>
  );
}
