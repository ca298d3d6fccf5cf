import { useState } from 'react';
import { Button, Form, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { QUALITY_STATUSES, type QualityRowDto } from '@kefu/protocol';
import { DataTable } from '../../../components/DataTable';
import { FilterBar } from '../../../components/FilterBar';
import { useList } from '../../../components/useList';
import { shortcutRange } from '../../../lib/dates';
import { formatTime } from '../../../lib/time';
import { qualityApi, type AllotFilter } from '../api';
import { AgentItem, InspectorItem, RangeItem, enumOptions, rangeQuery, type RangeFields } from './filters';
import { AssignModal } from './AssignModal';
import { ScoreCell, StatusTag } from './Tags';

type Fields = RangeFields & { status?: AllotFilter['status'] };
const initialFields = (): Fields => ({ range: shortcutRange('lastMonth') });
const toFilter = (v: Fields): AllotFilter => ({
  ...rangeQuery(v),
  inspector: v.inspector || undefined,
  status: v.status || undefined,
});

/** Allotted inspections (any status): the selected ones not yet scored can go to other inspectors. */
export function AllotPanel() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const list = useList<AllotFilter, QualityRowDto>(
    'quality-allot',
    (q, signal) => qualityApi.allotted(q, signal),
    toFilter(initialFields()),
  );
  const [assigning, setAssigning] = useState(false);
  const columns: ColumnsType<QualityRowDto> = [
    { title: t('qc.col.convtime'), dataIndex: 'convtime', width: 170, render: (v: number) => formatTime(v) },
    { title: t('qc.col.agent'), dataIndex: 'agentusername', width: 120 },
    { title: t('qc.col.visitor'), dataIndex: 'username', ellipsis: true },
    {
      title: t('qc.col.inspector'),
      dataIndex: 'inspectorname',
      width: 120,
      render: (v: string, row) => <span data-testid={`qc-allot-inspector-${row.agentserviceid}`}>{v}</span>,
    },
    {
      title: t('qc.col.allottime'),
      dataIndex: 'allottime',
      width: 170,
      render: (v: number) => formatTime(v),
    },
    {
      title: t('qc.col.status'),
      dataIndex: 'status',
      width: 90,
      render: (s: QualityRowDto['status']) => <StatusTag s={s} />,
    },
    {
      title: t('qc.col.score'),
      width: 150,
      render: (_: unknown, row) => <ScoreCell score={row.score} pass={row.pass} fatal={row.fatal} />,
    },
  ];
  const n = list.selected.length;
  return (
    <>
      <FilterBar<Fields>
        form={form}
        testId="qc-allot-filter"
        initialValues={initialFields()}
        onSearch={(v) => list.search(toFilter(v))}
        extra={
          <Button disabled={n === 0} onClick={() => setAssigning(true)} data-testid="qc-allot-again">
            {t('qc.allot.againN', { n })}
          </Button>
        }
      >
        <RangeItem />
        <AgentItem />
        <InspectorItem />
        <Form.Item name="status" label={t('qc.col.status')}>
          <Select allowClear style={{ width: 120 }} options={enumOptions(t, QUALITY_STATUSES, 'qc.status')} />
        </Form.Item>
      </FilterBar>
      <DataTable
        list={list}
        rowKey="id"
        selectable
        columns={columns}
        testId="qc-allot-table"
        emptyText={t('qc.allot.none')}
      />
      <AssignModal
        open={assigning}
        again
        count={n}
        onCancel={() => setAssigning(false)}
        assign={(inspectors) => qualityApi.manualAgain(list.selected, inspectors)}
        onDone={() => {
          setAssigning(false);
          list.setSelected([]);
          void list.refresh();
        }}
      />
    </>
  );
}
