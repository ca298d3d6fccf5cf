import { Progress, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ExportJobDto } from '@kefu/protocol';
import { progressOf } from './exportApi';

const COLORS = { queued: 'default', running: 'processing', done: 'success', failed: 'error' } as const;

/** A job's state: its tag, a progress bar while it runs, the error text when it failed. */
export function ExportStatus({ job }: { job: ExportJobDto }) {
  const { t, i18n } = useTranslation();
  const pct = progressOf(job);
  return (
    <div data-testid={`export-status-${job.id}`} data-status={job.status}>
      <Tag color={COLORS[job.status]}>{t(`export.status.${job.status}`)}</Tag>
      {(job.status === 'running' || job.status === 'queued') &&
        (pct === null ? (
          <Typography.Text type="secondary">{t('export.rowsSoFar', { n: job.rows })}</Typography.Text>
        ) : (
          <Progress percent={pct} size="small" status="active" style={{ width: 160, margin: 0 }} />
        ))}
      {job.status === 'done' && (
        <Typography.Text type="secondary">{t('export.rowsDone', { n: job.rows })}</Typography.Text>
      )}
      {job.status === 'failed' && job.error && (
        <Typography.Text type="danger">
          {i18n.exists(`error.${job.error}`) ? t(`error.${job.error}`) : job.error}
        </Typography.Text>
      )}
    </div>
  );
}
