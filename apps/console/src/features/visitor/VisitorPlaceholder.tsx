import { Button, Result } from 'antd';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { VISITOR_PAGES } from '@kefu/protocol';

/**
 * The real visitor pages are a separate, much lighter app served under /im/. This route only
 * exists so /visitor/* links resolve inside the console and point there.
 */
export default function VisitorPlaceholder() {
  const { t } = useTranslation();
  const { page = 'text' } = useParams();
  const known = (VISITOR_PAGES as readonly string[]).includes(page);
  return (
    <Result
      style={{ paddingTop: 120 }}
      status={known ? 'info' : '404'}
      title={t('visitor.title')}
      subTitle={t('visitor.desc')}
      extra={
        known && (
          <Button type="primary" href={`/im/${page}${window.location.search}`} data-testid="visitor-open">
            {t('visitor.open')}
          </Button>
        )
      }
    />
  );
}
