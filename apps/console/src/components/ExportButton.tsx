import { useState } from 'react';
import { Button, Modal, Space, Typography } from 'antd';
import { DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EXPORT_LIMITS, type ExportJobDto } from '@kefu/protocol';
import { exportApi } from './exportApi';
import { ExportStatus } from './ExportStatus';
import { ExportJobsDrawer } from './ExportJobsDrawer';

const live = (j: ExportJobDto | undefined) => j?.status === 'queued' || j?.status === 'running';

/**
 * Starts a background export (`start` calls the screen's expids / expsearch) and follows it in a dialog:
 * progress while it runs, the download when it is done, the error when it failed, and the list of all
 * the user's exports. Usage: `<ExportButton start={() => api.exportSearch(filter)} testId="history-export" />`.
 */
export function ExportButton(props: {
  start: () => Promise<ExportJobDto>;
  label?: string;
  disabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [started, setStarted] = useState<ExportJobDto | null>(null);
  const [starting, setStarting] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const job = useQuery({
    queryKey: ['exportJob', started?.id],
    queryFn: ({ signal }) => exportApi.job(started!.id, signal),
    enabled: !!started,
    initialData: started ?? undefined,
    refetchInterval: (q) => (live(q.state.data) ? EXPORT_LIMITS.pollMs : false),
  });
  const current = job.data ?? started;

  const run = async () => {
    setStarting(true);
    try {
      setStarted(await props.start());
    } catch {
      // toasted by the request layer
    } finally {
      setStarting(false);
    }
  };
  const testId = props.testId ?? 'export';

  return (
    <>
      <Button
        icon={<ExportOutlined />}
        loading={starting}
        disabled={props.disabled}
        data-testid={testId}
        onClick={() => void run()}
      >
        {props.label ?? t('common.export')}
      </Button>
      <Modal
        open={!!current}
        title={t('export.title')}
        onCancel={() => setStarted(null)}
        footer={
          <Space>
            <Button data-testid={`${testId}-all`} onClick={() => setListOpen(true)}>
              {t('export.all')}
            </Button>
            <Button
              type="primary"
              icon={<DownloadOutlined />}
              disabled={current?.status !== 'done'}
              data-testid={`${testId}-download`}
              onClick={() => current && void exportApi.download(current)}
            >
              {t('export.download')}
            </Button>
          </Space>
        }
      >
        {current && (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Typography.Text strong>{current.filename}</Typography.Text>
            <ExportStatus job={current} />
            {live(current) && <Typography.Text type="secondary">{t('export.background')}</Typography.Text>}
          </Space>
        )}
      </Modal>
      <ExportJobsDrawer open={listOpen} onClose={() => setListOpen(false)} />
    </>
  );
}
