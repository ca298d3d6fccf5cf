import { useState } from 'react';
import { Button, Form, InputNumber, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { type QualityRowDto } from '@kefu/protocol';
import { DataTable } from '../../../components/DataTable';
import { ExportButton } from '../../../components/ExportButton';
import { FilterBar } from '../../../components/FilterBar';
import { useList } from '../../../components/useList';
import { shortcutRange } from '../../../lib/dates';
import { qualityApi, type InspectFilter } from '../api';
import {
  AgentItem,
  AppealItem,
  InspectorItem,
  RangeItem,
  SelectItem,
  StatusItem,
  rangeQuery,
  type RangeFields,
} from './filters';
import { rowColumns } from './rowColumns';
import { BatchScoreModal } from './BatchScoreModal';

type Fields = RangeFields & Omit<InspectFilter, 'begin' | 'end' | 'agentno' | 'organ' | 'inspector'>;
const initialFields = (): Fields => ({ range: shortcutRange('lastMonth') });
const toFilter = (v: Fields): InspectFilter => ({
  ...rangeQuery(v),
  inspector: v.inspector || undefined,
  status: v.status || undefined,
  pass: v.pass ?? undefined,
  fatal: v.fatal ?? undefined,
  appeal: v.appeal || undefined,
  minscore: v.minscore ?? undefined,
  maxscore: v.maxscore ?? undefined,
});

/** The inspections the caller may score (an assigner: all), filters, batch scoring, exports. */
export function InspectList(props: { onOpen: (id: string) => void; all: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const list = useList<InspectFilter, QualityRowDto>(
    'quality-list',
    (q, signal) => qualityApi.list(q, signal),
    toFilter(initialFields()),
  );
  const [batch, setBatch] = useState(false);
  const yesNo = [
    { value: true, label: t('common.yes') },
    { value: false, label: t('common.no') },
  ];
  const columns: ColumnsType<QualityRowDto> = [
    ...rowColumns(t, [
      'convtime',
      'agent',
      'visitor',
      'card',
      'status',
      'score',
      'auto',
      'appeal',
      ...(props.all ? (['inspector'] as const) : []),
    ]),
    {
      title: t('common.actions'),
      width: 90,
      render: (_: unknown, r: QualityRowDto) => (
        <Button
          type="link"
          size="small"
          onClick={() => props.onOpen(r.id)}
          data-testid={`qc-open-${r.agentserviceid}`}
        >
          {r.status === 'allotted' ? t('qc.inspect') : t('qc.view')}
        </Button>
      ),
    },
  ];
  const n = list.selected.length;
  return (
    <>
      <FilterBar<Fields>
        form={form}
        testId="qc-list-filter"
        initialValues={initialFields()}
        onSearch={(v) => list.search(toFilter(v))}
        extra={
          <>
            <Button disabled={n === 0} onClick={() => setBatch(true)} data-testid="qc-batch-open">
              {t('qc.batch.open', { n })}
            </Button>
            <ExportButton
              start={() => qualityApi.exportAll(list.filter)}
              testId="qc-expall"
              label={t('qc.export.all')}
            />
            <ExportButton
              start={() => qualityApi.exportIds(list.selected)}
              disabled={n === 0}
              testId="qc-expids"
              label={t('qc.export.ids', { n })}
            />
          </>
        }
      >
        <RangeItem />
        <AgentItem />
        {props.all && <InspectorItem />}
        <StatusItem />
        <SelectItem name="pass" label={t('qc.pass')} options={yesNo} width={90} />
        <SelectItem name="fatal" label={t('qc.fatal')} options={yesNo} width={90} />
        <AppealItem />
        <Form.Item label={t('qc.col.score')}>
          <Space.Compact>
            <Form.Item name="minscore" noStyle>
              <InputNumber min={0} precision={0} placeholder={t('qc.f.min')} style={{ width: 80 }} />
            </Form.Item>
            <Form.Item name="maxscore" noStyle>
              <InputNumber min={0} precision={0} placeholder={t('qc.f.max')} style={{ width: 80 }} />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
      </FilterBar>
      <DataTable
        list={list}
        rowKey="id"
        selectable
        columns={columns}
        testId="qc-list-table"
        emptyText={t('qc.none')}
      />
      <BatchScoreModal
        ids={list.selected}
        open={batch}
        onClose={() => setBatch(false)}
        onDone={() => {
          setBatch(false);
          list.setSelected([]);
          void list.refresh();
        }}
      />
    </>
  );
}
