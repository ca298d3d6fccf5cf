import { Form, Select, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { SENSITIVE_ACTIONS, type SensitiveAction, type SensitiveHitDto } from '@kefu/protocol';
import { sensitiveApi } from '../api';
import { DataTable } from '../../../components/DataTable';
import { FilterBar } from '../../../components/FilterBar';
import { useList } from '../../../components/useList';
import { formatTime } from '../../../lib/time';
import { ACTION_COLORS } from './WordList';

interface Filter {
  action?: SensitiveAction;
}

/** Messages that hit words, newest first (supervisors and quality inspectors). */
export function HitsPanel() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Filter>();
  const list = useList<Filter, SensitiveHitDto>(
    'sensitive-hits',
    (q, signal) => sensitiveApi.hits(q, signal),
    {},
  );
  const columns: ColumnsType<SensitiveHitDto> = [
    { title: t('rec.time'), dataIndex: 'createtime', width: 180, render: (v: number) => formatTime(v) },
    { title: t('sw.hits.side'), dataIndex: 'side', width: 90, render: (s: string) => t(`sw.hits.side.${s}`) },
    {
      title: t('sw.action'),
      dataIndex: 'action',
      width: 130,
      render: (a: SensitiveAction) => <Tag color={ACTION_COLORS[a]}>{t(`sw.action.${a}`)}</Tag>,
    },
    {
      title: t('sw.hits.words'),
      dataIndex: 'words',
      render: (w: string[], row) => (
        <>
          {w.join('、')}
          {!row.messageid && <Typography.Text type="secondary"> {t('sw.hits.blocked')}</Typography.Text>}
        </>
      ),
    },
    {
      title: t('sw.hits.conversation'),
      dataIndex: 'agentserviceid',
      width: 260,
      render: (v: string) => <Typography.Text copyable={{ text: v }}>{v.slice(0, 12)}…</Typography.Text>,
    },
  ];
  return (
    <>
      <FilterBar<Filter>
        form={form}
        testId="sw-hits-filter"
        onSearch={(v) => list.search({ action: v.action })}
      >
        <Form.Item name="action" label={t('sw.action')}>
          <Select
            allowClear
            style={{ width: 150 }}
            options={SENSITIVE_ACTIONS.map((a) => ({ value: a, label: t(`sw.action.${a}`) }))}
          />
        </Form.Item>
      </FilterBar>
      <DataTable list={list} rowKey="id" columns={columns} testId="sw-hits-table" />
    </>
  );
}
