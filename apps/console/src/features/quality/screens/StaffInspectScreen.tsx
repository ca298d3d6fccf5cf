import { useEffect, useState } from 'react';
import { Badge, Button, Card, Form } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type QualityRowDto } from '@kefu/protocol';
import { DataTable } from '../../../components/DataTable';
import { FilterBar } from '../../../components/FilterBar';
import { useList } from '../../../components/useList';
import { formatTime } from '../../../lib/time';
import { useDialogue } from '../../dialogue/store';
import { qualityApi, type StaffFilter } from '../api';
import { Counts } from '../components/Counts';
import { AppealItem, RangeItem, rangeQuery, type RangeFields } from '../components/filters';
import { rowColumns } from '../components/rowColumns';
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
  // A result sent, an appeal answered or resolved (socket event `quality`): the list, the counts and an
  // open detail read again.
  const socket = useDialogue((st) => st.socket);
  useEffect(() => {
    if (!socket) return;
    const on = () => {
      for (const queryKey of [['quality-staff'], ['quality', 'count'], ['quality', 'detail']])
        void qc.invalidateQueries({ queryKey });
    };
    socket.on('quality', on);
    return () => {
      socket.off('quality', on);
    };
  }, [socket, qc]);
  const count = useQuery({
    queryKey: ['quality', 'count'],
    queryFn: ({ signal }) => qualityApi.count(signal),
  });
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
    ...rowColumns(t, ['visitor', 'card', 'score', 'inspector', 'sendtime', 'appealuntil', 'appeal']),
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
        onSearch={(v) => list.search({ ...rangeQuery(v), appeal: v.appeal || undefined })}
      >
        <RangeItem />
        <AppealItem />
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
