import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { PageViewDto } from '@kefu/protocol';
import { safeHref } from '../../../lib/urls';

/** The website pages the visitor went through before and during the chat, newest first. */
export function PageTrail({ pages }: { pages: readonly PageViewDto[] | undefined }) {
  const { t } = useTranslation();
  if (!pages?.length) return null;
  return (
    <div data-testid="visitor-trail" style={{ marginTop: 16 }}>
      <Typography.Text strong>{t('dialogue.trail')}</Typography.Text>
      <ol style={{ listStyle: 'none', margin: '8px 0 0', padding: 0 }}>
        {pages.map((p) => {
          const href = safeHref(p.url);
          const label = p.title || p.url;
          return (
            <li
              key={p.id}
              data-testid="visitor-trail-page"
              style={{ display: 'flex', gap: 8, marginBottom: 6 }}
            >
              <Typography.Text type="secondary" style={{ fontSize: 12, flexShrink: 0, width: 40 }}>
                {dayjs(p.createtime).format('HH:mm')}
              </Typography.Text>
              {href ? (
                <Typography.Link
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  ellipsis
                  title={p.url}
                  style={{ minWidth: 0 }}
                >
                  {label}
                </Typography.Link>
              ) : (
                <Typography.Text ellipsis title={p.url} style={{ minWidth: 0 }}>
                  {label}
                </Typography.Text>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
