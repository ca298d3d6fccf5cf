import { useState } from 'react';
import { Button, Form, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { QUALITY_RULES, type QualityCandidateDto } from '@kefu/protocol';
import { DataTable } from '../../../components/DataTable';
import { FilterBar } from '../../../components/FilterBar';
import { ConfirmLink } from '../../../components/RowActions';
import { useList } from '../../../components/useList';
import { shortcutRange } from '../../../lib/dates';
import { formatTime } from '../../../lib/time';
import { qualityApi, type NotAllotFilter } from '../api';
import {
  AgentItem,
  OrganItem,
  RangeItem,
  SelectItem,
  enumOptions,
  rangeQuery,
  type RangeFields,
} from './filters';
import { AssignModal } from './AssignModal';

type Fields = RangeFields & { rule?: string };
const initialFields = (): Fields => ({ range: shortcutRange('lastMonth') });
const toFilter = (v: Fields): NotAllotFilter => ({ ...rangeQuery(v), rule: v.rule || undefined });

/** Ended conversations not yet allotted: assign the selected ones, or mark them not for inspection. */
export function NotAllotPanel() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const list = useList<NotAllotFilter, QualityCandidateDto>(
    'quality-notAllot',
    (q, signal) => qualityApi.notAllotted(q, signal),
    toFilter(initialFields()),
  );
  const [assigning, setAssigning] = useState(false);
  const columns: ColumnsType<QualityCandidateDto> = [
    {
      title: t('qc.col.endtime'),
      dataIndex: 'endtime',
      width: 170,
      render: (v: number | null) => formatTime(v),
    },
    { title: t('qc.col.agent'), dataIndex: 'agentusername', width: 120 },
    { title: t('qc.col.visitor'), dataIndex: 'username', ellipsis: true },
    {
      title: t('qc.col.channel'),
      dataIndex: 'channel',
      width: 100,
      render: (c: string) => t(`channel.name.${c}`, { defaultValue: c }),
    },
    {
      title: t('qc.col.auto'),
      dataIndex: 'autopoints',
      width: 90,
      render: (v: number) => (v ? <Tag color="orange">−{v}</Tag> : 0),
    },
    {
      title: t('qc.col.rules'),
      dataIndex: 'rules',
      render: (rs: QualityCandidateDto['rules']) =>
        rs.map((r) => (
          <Tooltip key={r} title={t(`qc.rule.${r}.hint`)}>
            <Tag>{t(`qc.rule.${r}`)}</Tag>
          </Tooltip>
        )),
    },
    {
      title: t('qc.col.satis'),
      dataIndex: 'satislevel',
      width: 90,
      render: (s: string | null) => (s ? t(`history.satis.${s}`, { defaultValue: s }) : ''),
    },
    { title: t('qc.col.trans'), dataIndex: 'trans', width: 70 },
  ];
  const n = list.selected.length;
  return (
    <>
      <FilterBar<Fields>
        form={form}
        testId="qc-na-filter"
        initialValues={initialFields()}
        onSearch={(v) => list.search(toFilter(v))}
        extra={
          <>
            <Button
              type="primary"
              disabled={n === 0}
              onClick={() => setAssigning(true)}
              data-testid="qc-na-assign"
            >
              {t('qc.allot.manualN', { n })}
            </Button>
            <ConfirmLink
              label={t('qc.allot.excludeN', { n })}
              confirmText={t('qc.allot.excludeConfirm', { n })}
              disabled={n === 0}
              onConfirm={() => qualityApi.exclude(list.selected)}
              onDone={() => {
                list.setSelected([]);
                void list.refresh();
              }}
              testId="qc-na-exclude"
            />
          </>
        }
      >
        <RangeItem />
        <AgentItem />
        <OrganItem />
        <SelectItem
          name="rule"
          label={t('qc.f.rule')}
          width={150}
          options={enumOptions(t, QUALITY_RULES, 'qc.rule')}
        />
      </FilterBar>
      <DataTable
        list={list}
        rowKey="agentserviceid"
        selectable
        columns={columns}
        testId="qc-na-table"
        emptyText={t('qc.allot.noneLeft')}
      />
      <AssignModal
        open={assigning}
        count={n}
        onCancel={() => setAssigning(false)}
        assign={(inspectors) => qualityApi.manual(list.selected, inspectors)}
        onDone={() => {
          setAssigning(false);
          list.setSelected([]);
          void list.refresh();
        }}
      />
    </>
  );
}
