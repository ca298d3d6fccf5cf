import { useState } from 'react';
import { Button, Drawer, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EXPORT_LIMITS, formatFileSize, type ExportJobDto } from '@kefu/protocol';
import { firstPage, pager, type PageState } from '../lib/table';
import { formatTime } from '../lib/time';
import { exportApi } from './exportApi';
import { ExportStatus } from './ExportStatus';
import { DeleteLink } from './RowActions';

/** The user's exports (GET /api/agent/history/excelList): state, progress, download, delete. */
export function ExportJobsDrawer(props: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [page, setPage] = useState<PageState>(firstPage);
  const list = useQuery({
    queryKey: ['exportJobs', page],
    queryFn: ({ signal }) => exportApi.list(page, signal),
    enabled: props.open,
    refetchInterval: (q) =>
      q.state.data?.list.some((j) => j.status === 'queued' || j.status === 'running')
        ? EXPORT_LIMITS.pollMs
        : false,
  });
  const columns: ColumnsType<ExportJobDto> = [
    { title: t('export.file'), dataIndex: 'filename', ellipsis: true },
    { title: t('export.state'), key: 's', width: 260, render: (_, j) => <ExportStatus job={j} /> },
    {
      title: t('export.size'),
      dataIndex: 'size',
      width: 90,
      render: (v: number | null) => (v === null ? '' : formatFileSize(v)),
    },
    { title: t('export.created'), dataIndex: 'createtime', width: 170, render: (v: number) => formatTime(v) },
    {
      title: t('common.actions'),
      key: 'a',
      width: 130,
      render: (_, j) => (
        <>
          <Button
            type="link"
            size="small"
            disabled={j.status !== 'done'}
            data-testid={`export-download-${j.id}`}
            onClick={() => void exportApi.download(j)}
          >
            {t('export.download')}
          </Button>
          <DeleteLink
            name={j.filename}
            onDelete={() => exportApi.remove(j.id)}
            onDone={() => void qc.invalidateQueries({ queryKey: ['exportJobs'] })}
          />
        </>
      ),
    },
  ];
  return (
    <Drawer
      open={props.open}
      onClose={props.onClose}
      title={t('export.all')}
      size="large"
      data-testid="export-jobs"
    >
      <Table<ExportJobDto>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching && !list.data}
        locale={{ emptyText: t('export.none') }}
        pagination={pager(page, list.data?.total ?? 0, setPage, (n) => t('common.total', { total: n }))}
      />
    </Drawer>
  );
}
