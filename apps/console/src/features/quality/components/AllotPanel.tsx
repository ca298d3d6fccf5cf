import { useState } from 'react';
import { Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { type QualityRowDto } from '@kefu/protocol';
import { DataTable } from '../../../components/DataTable';
import { FilterBar } from '../../../components/FilterBar';
import { useList } from '../../../components/useList';
import { shortcutRange } from '../../../lib/dates';
import { qualityApi, type AllotFilter } from '../api';
import { AgentItem, InspectorItem, RangeItem, StatusItem, rangeQuery, type RangeFields } from './filters';
import { AssignModal } from './AssignModal';
import { rowColumns } from './rowColumns';

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
  const columns = rowColumns(t, [
    'convtime',
    'agent',
    'visitor',
    'inspector',
    'allottime',
    'status',
    'score',
  ]);
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
        <StatusItem />
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
