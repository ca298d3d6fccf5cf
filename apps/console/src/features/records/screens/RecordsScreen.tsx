import { Card, DatePicker, Form, Input, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { AuditLogDto } from '@kefu/protocol';
import { recordsApi, type RecordFilter } from '../api';
import { RecordDetail } from '../components/RecordDetail';
import { DataTable } from '../../../components/DataTable';
import { ExportButton } from '../../../components/ExportButton';
import { FilterBar } from '../../../components/FilterBar';
import { useList } from '../../../components/useList';
import { datePresets, type Range } from '../../../lib/dates';
import { formatTime } from '../../../lib/time';

interface Fields {
  q?: string;
  range?: Range | null;
}

const toFilter = (v: Fields): RecordFilter => ({
  q: v.q?.trim() || undefined,
  begin: v.range?.[0]?.valueOf(),
  end: v.range?.[1]?.valueOf(),
});

const METHOD_COLORS: Record<string, string> = { POST: 'blue', GET: 'default', PUT: 'green', DELETE: 'red' };

/** /setup/records (A09_A06_A01): the audit log, searchable and exportable, never editable. */
export default function RecordsScreen() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const list = useList<RecordFilter, AuditLogDto>('records', (q, signal) => recordsApi.page(q, signal), {});
  const columns: ColumnsType<AuditLogDto> = [
    { title: t('rec.time'), dataIndex: 'createtime', width: 180, render: (v: number) => formatTime(v) },
    { title: t('rec.user'), dataIndex: 'username', width: 140 },
    {
      title: t('rec.action'),
      dataIndex: 'action',
      render: (a: string, r) => (
        <>
          <Tag color={METHOD_COLORS[r.method]}>{r.method}</Tag>
          <span data-testid={`rec-action-${a}`}>{a}</span>
        </>
      ),
    },
    {
      title: t('rec.target'),
      dataIndex: 'target',
      width: 220,
      ellipsis: true,
      render: (v: string) => v || '—',
    },
    { title: t('rec.ip'), dataIndex: 'ip', width: 140 },
  ];
  return (
    <Card size="small" title={t('rec.title')} data-testid="records-screen">
      <Typography.Paragraph type="secondary">{t('rec.desc')}</Typography.Paragraph>
      <FilterBar<Fields>
        form={form}
        testId="rec-filter"
        onSearch={(v) => list.search(toFilter(v))}
        extra={<ExportButton start={() => recordsApi.exportSearch(list.filter)} testId="rec-export" />}
      >
        <Form.Item name="q" label={t('rec.q')}>
          <Input allowClear placeholder={t('rec.qPlaceholder')} style={{ width: 220 }} data-testid="rec-q" />
        </Form.Item>
        <Form.Item name="range" label={t('rec.range')}>
          <DatePicker.RangePicker showTime presets={datePresets(t)} data-testid="rec-range" />
        </Form.Item>
      </FilterBar>
      <DataTable
        list={list}
        rowKey="id"
        columns={columns}
        testId="rec-table"
        emptyText={t('rec.empty')}
        expandable={{ expandedRowRender: (r) => <RecordDetail r={r} /> }}
      />
    </Card>
  );
}
