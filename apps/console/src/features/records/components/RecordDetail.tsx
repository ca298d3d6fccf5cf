import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AuditLogDto } from '@kefu/protocol';

/** Pretty JSON of a stored before/after value (secrets are already *** on the server). */
function Json({ value }: { value: string | null }) {
  const { t } = useTranslation();
  if (!value) return <Typography.Text type="secondary">{t('rec.none')}</Typography.Text>;
  let text = value;
  try {
    text = JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    // cut at the size limit: shown as stored
  }
  return (
    <pre style={{ margin: 0, maxHeight: 260, overflow: 'auto', fontSize: 12, whiteSpace: 'pre-wrap' }}>
      {text}
    </pre>
  );
}

/** One record expanded: the call, its target, the state before and after, and the browser. */
export function RecordDetail({ r }: { r: AuditLogDto }) {
  const { t } = useTranslation();
  return (
    <Descriptions size="small" column={1} bordered data-testid={`rec-detail-${r.id}`}>
      <Descriptions.Item label={t('rec.action')}>
        {r.method} {r.path}
      </Descriptions.Item>
      <Descriptions.Item label={t('rec.before')}>
        <Json value={r.before} />
      </Descriptions.Item>
      <Descriptions.Item label={t('rec.after')}>
        <Json value={r.after} />
      </Descriptions.Item>
      <Descriptions.Item label="User-Agent">{r.useragent || '—'}</Descriptions.Item>
    </Descriptions>
  );
}
