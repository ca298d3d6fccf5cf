import { useState } from 'react';
import { Badge, Button, Card, Form, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QUALITY_APPEAL_STATES, type QualityRowDto } from '@kefu/protocol';
import { DataTable } from '../../../components/DataTable';
import { FilterBar } from '../../../components/FilterBar';
import { useList } from '../../../components/useList';
import { formatTime } from '../../../lib/time';
import { qualityApi, type StaffFilter } from '../api';
import { Counts } from '../components/Counts';
import { RangeItem, enumOptions, type RangeFields } from '../components/filters';
import { AppealTag, ScoreCell } from '../components/Tags';
import { InspectionDrawer } from '../components/InspectionDrawer';

type Fields = Pick<RangeFields, 'range'> & { appeal?: StaffFilter['appeal'] };

/** /quality/staffInspect (A11_A03): the agent's own results, their detail, appeals and appeal threads. */
export default function StaffInspectScreen() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form] = Form.useForm<Fields>();
  const [open, setOpen] = useState<string | null>(null);
  const list = useList<StaffFilter, QualityRowDto>(
    'quality-staff',
    (q, signal) => qualityApi.staff(q, signal),
    {},
  );
  const count = useQuery({
    queryKey: ['quality', 'count'],
    queryFn: ({ signal }) => qualityApi.count(signal),
  });
  const now = Date.now();
  const columns: ColumnsType<QualityRowDto> = [
    {
      title: t('qc.col.convtime'),
      dataIndex: 'convtime',
      width: 170,
      render: (v: number, r) => (
        <Badge dot={!r.seen} offset={[6, 0]}>
          {formatTime(v)}
        </Badge>
      ),
    },
    { title: t('qc.col.visitor'), dataIndex: 'username', width: 110, ellipsis: true },
    {
      title: t('qc.col.card'),
      dataIndex: 'cardname',
      width: 120,
      render: (v: string, r) => `${v} v${r.version}`,
    },
    {
      title: t('qc.col.score'),
      width: 140,
      render: (_: unknown, r) => (
        <ScoreCell
          score={r.score}
          pass={r.pass}
          fatal={r.fatal}
          testId={`qc-staff-score-${r.agentserviceid}`}
        />
      ),
    },
    { title: t('qc.col.inspector'), dataIndex: 'inspectorname', width: 100 },
    {
      title: t('qc.col.sendtime'),
      dataIndex: 'sendtime',
      width: 170,
      render: (v: number | null) => formatTime(v),
    },
    {
      title: t('qc.col.appealuntil'),
      dataIndex: 'appealuntil',
      width: 170,
      render: (v: number | null) => (
        <span style={{ opacity: v && v < now ? 0.5 : 1 }}>
          {v && v < now ? t('qc.appeal.closed') : formatTime(v)}
        </span>
      ),
    },
    {
      title: t('qc.col.appeal'),
      dataIndex: 'appeal',
      width: 100,
      render: (s: QualityRowDto['appeal']) => <AppealTag s={s} />,
    },
    {
      title: t('common.actions'),
      width: 80,
      render: (_: unknown, r) => (
        <Button
          type="link"
          size="small"
          onClick={() => setOpen(r.id)}
          data-testid={`qc-staff-open-${r.agentserviceid}`}
        >
          {t('qc.view')}
        </Button>
      ),
    },
  ];
  return (
    <Card size="small" data-testid="qc-staff-screen">
      <Counts count={count.data} keys={['mineUnseen', 'mineAppeals']} />
      <FilterBar<Fields>
        form={form}
        testId="qc-staff-filter"
        onSearch={(v) =>
          list.search({
            begin: v.range?.[0]?.startOf('day').valueOf(),
            end: v.range?.[1]?.endOf('day').valueOf(),
            appeal: v.appeal || undefined,
          })
        }
      >
        <RangeItem />
        <Form.Item name="appeal" label={t('qc.col.appeal')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={enumOptions(t, QUALITY_APPEAL_STATES, 'qc.appeal')}
          />
        </Form.Item>
      </FilterBar>
      <DataTable
        list={list}
        rowKey="id"
        columns={columns}
        testId="qc-staff-table"
        emptyText={t('qc.staff.none')}
      />
      <InspectionDrawer
        id={open}
        onClose={() => setOpen(null)}
        onChanged={() => {
          void list.refresh();
          void qc.invalidateQueries({ queryKey: ['quality', 'count'] });
        }}
      />
    </Card>
  );
}
