import { useState } from 'react';
import { Button, Form, Input, Modal, Radio } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { QUALITY_APPEAL_STATES, type QualityAppealRowDto } from '@kefu/protocol';
import { DataTable } from '../../../components/DataTable';
import { FilterBar } from '../../../components/FilterBar';
import { useList } from '../../../components/useList';
import { formatTime } from '../../../lib/time';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { qualityApi, type AppealFilter } from '../api';
import { AgentItem, SelectItem, enumOptions } from './filters';
import { AppealTag } from './Tags';

/** Closes the selected appeals at once: upheld or rejected (partly needs scores per item). */
function BatchEnd(props: { ids: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<'upheld' | 'rejected'>('rejected');
  const [comment, setComment] = useState('');
  const { saving, run } = useSaving();
  const end = () =>
    run(async () => {
      const r = await qualityApi.endAppeals(props.ids, outcome, comment.trim());
      notify.success(t('qc.appeal.ended', { n: r.ended }));
      setOpen(false);
      props.onDone();
    });
  return (
    <>
      <Button disabled={!props.ids.length} onClick={() => setOpen(true)} data-testid="qc-appeal-batch">
        {t('qc.appeal.batch', { n: props.ids.length })}
      </Button>
      <Modal
        open={open}
        title={t('qc.appeal.batch', { n: props.ids.length })}
        onCancel={() => setOpen(false)}
        onOk={() => void end()}
        confirmLoading={saving}
        okText={t('qc.arbitrate.end')}
        cancelText={t('common.cancel')}
      >
        <Radio.Group value={outcome} onChange={(e) => setOutcome(e.target.value as 'upheld' | 'rejected')}>
          <Radio value="upheld">{t('qc.outcome.upheld')}</Radio>
          <Radio value="rejected">{t('qc.outcome.rejected')}</Radio>
        </Radio.Group>
        <Input.TextArea
          rows={2}
          style={{ marginTop: 8 }}
          placeholder={t('qc.arbitrate.comment')}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
        />
      </Modal>
    </>
  );
}

/** Appeals the caller answers or arbitrates; opening one opens its inspection (thread, ending). */
export function AppealList(props: { onOpen: (inspectionid: string) => void; canBatch: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AppealFilter>();
  const list = useList<AppealFilter, QualityAppealRowDto>(
    'quality-appeals',
    (q, signal) => qualityApi.appeals(q, signal),
    {},
  );
  const columns: ColumnsType<QualityAppealRowDto> = [
    {
      title: t('qc.appeal.submittime'),
      dataIndex: 'submittime',
      width: 170,
      render: (v: number | null) => formatTime(v),
    },
    { title: t('qc.col.agent'), dataIndex: 'agentusername', width: 120 },
    { title: t('qc.col.inspector'), dataIndex: 'inspectorname', width: 120 },
    {
      title: t('qc.col.appeal'),
      width: 170,
      render: (_: unknown, r) => <AppealTag s={r.state} outcome={r.outcome} />,
    },
    { title: t('qc.appeal.items'), dataIndex: 'items', width: 80 },
    {
      title: t('qc.appeal.score'),
      width: 110,
      render: (_: unknown, r) => `${r.scorebefore} → ${r.scoreafter ?? '…'}`,
    },
    {
      title: t('qc.appeal.resolvetime'),
      dataIndex: 'resolvetime',
      width: 170,
      render: (v: number | null) => formatTime(v),
    },
    {
      title: t('common.actions'),
      width: 90,
      render: (_: unknown, r) => (
        <Button
          type="link"
          size="small"
          onClick={() => props.onOpen(r.inspectionid)}
          data-testid={`qc-appeal-open-${r.agentserviceid}`}
        >
          {t('qc.appeal.handle')}
        </Button>
      ),
    },
  ];
  return (
    <>
      <FilterBar<AppealFilter>
        form={form}
        testId="qc-appeal-filter"
        onSearch={(v) => list.search({ state: v.state || undefined, agentno: v.agentno || undefined })}
        extra={
          props.canBatch && (
            <BatchEnd
              ids={list.selected}
              onDone={() => {
                list.setSelected([]);
                void list.refresh();
              }}
            />
          )
        }
      >
        <SelectItem
          name="state"
          label={t('qc.col.appeal')}
          width={120}
          options={enumOptions(t, QUALITY_APPEAL_STATES, 'qc.appeal')}
        />
        <AgentItem />
      </FilterBar>
      <DataTable
        list={list}
        rowKey="id"
        selectable={props.canBatch}
        columns={columns}
        testId="qc-appeal-table"
        emptyText={t('qc.appeal.none')}
      />
    </>
  );
}
