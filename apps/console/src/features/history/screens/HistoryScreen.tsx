import { useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Segmented, Space, Typography } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { HISTORY_LIMITS, type HistoryPage, type HistoryRowDto, type HistorySort } from '@kefu/protocol';
import { DataTable } from '../../../components/DataTable';
import { ExportButton } from '../../../components/ExportButton';
import { FilterBar } from '../../../components/FilterBar';
import { ConfirmLink } from '../../../components/RowActions';
import { useList } from '../../../components/useList';
import { formatTime } from '../../../lib/time';
import { TagChips } from '../../tags/components/TagChips';
import { historyApi, type HistoryFilter } from '../api';
import { HistoryFilterItems, initialFields, toFilter, type FilterFields } from '../components/HistoryFilters';
import { HistoryDrawer } from '../components/HistoryDrawer';
import { duration } from '../components/format';
import { Highlight } from '../components/Highlight';

const SORTABLE: Record<string, HistorySort> = {
  createtime: 'createtime',
  endtime: 'endtime',
  waittime: 'waittime',
  servetime: 'servetime',
};

/** /history (A04): the conversation records — filters and message search, detail, summary, blacklist, exports. */
export default function HistoryScreen() {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterFields>();
  const initial = useMemo(initialFields, []);
  const list = useList<HistoryFilter, HistoryRowDto, HistoryPage>(
    'history',
    (q, signal) => historyApi.list(q, signal),
    toFilter(initial),
  );
  const [viewing, setViewing] = useState<string | null>(null);
  const f = list.filter;
  const keyword = !!f.keyword;
  const order = (key: string) =>
    f.sort === key || (!f.sort && key === 'createtime') ? (f.order === 'asc' ? 'ascend' : 'descend') : null;

  const columns: ColumnsType<HistoryRowDto> = [
    {
      title: t('history.visitor'),
      key: 'visitor',
      width: 150,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <a onClick={() => setViewing(r.id)} data-testid={`history-row-${r.id}`}>
            {r.username || r.name || r.userid}
          </a>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`channel.name.${r.channel}`)}
            {r.appname ? ` · ${r.appname}` : ''}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('history.agent'),
      key: 'agent',
      width: 130,
      ellipsis: true,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          {r.agentusername}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.organname}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('history.createtime'),
      dataIndex: 'createtime',
      key: 'createtime',
      width: 165,
      sorter: true,
      sortOrder: order('createtime'),
      render: (v: number) => formatTime(v),
    },
    {
      title: t('history.servetime'),
      dataIndex: 'servetime',
      key: 'servetime',
      width: 100,
      sorter: true,
      sortOrder: order('servetime'),
      render: (v: number | null) => duration(t, v),
    },
    {
      title: t('history.waittime'),
      dataIndex: 'waittime',
      key: 'waittime',
      width: 90,
      sorter: true,
      sortOrder: order('waittime'),
      render: (v: number) => duration(t, v),
    },
    {
      title: t('history.endby'),
      dataIndex: 'endby',
      width: 70,
      render: (v: string | null) => (v ? t(`history.endby.${v}`) : ''),
    },
    {
      title: t('history.satislevel'),
      dataIndex: 'satislevel',
      width: 125,
      render: (v: string | null) => (v ? t(`history.satis.${v}`) : ''),
    },
    {
      title: t('history.tags'),
      key: 'tags',
      render: (_, r) => <TagChips tags={r.tags} />,
    },
    {
      title: t('common.actions'),
      key: 'a',
      width: 130,
      fixed: 'right',
      render: (_, r) => (
        <>
          <Button
            type="link"
            size="small"
            onClick={() => setViewing(r.id)}
            data-testid={`history-view-${r.id}`}
          >
            {t('history.view')}
          </Button>
          <ConfirmLink
            label={t('history.black')}
            danger
            confirmText={t('history.blackConfirm', { name: r.username || r.userid })}
            onConfirm={async () => {
              await historyApi.black({ agentserviceid: r.id, controltime: 0, description: '' });
              return t('history.blacked');
            }}
            testId={`history-black-${r.id}`}
          />
        </>
      ),
    },
  ];

  const onTable = (s: SorterResult<HistoryRowDto> | SorterResult<HistoryRowDto>[]) => {
    const one = Array.isArray(s) ? s[0] : s;
    const sort = one?.order ? SORTABLE[String(one.columnKey)] : undefined;
    if (!sort && f.sort !== 'relevance') return list.search({ ...f, sort: undefined, order: undefined });
    if (sort) list.search({ ...f, sort, order: one?.order === 'ascend' ? 'asc' : 'desc' });
  };

  return (
    <Card size="small" data-testid="history-screen">
      <FilterBar<FilterFields>
        form={form}
        initialValues={initial}
        testId="history-filter"
        onSearch={(v) =>
          list.search({ ...toFilter(v), sort: f.sort === 'relevance' && v.keyword ? 'relevance' : undefined })
        }
        extra={
          <>
            <ExportButton
              start={() => historyApi.exportSearch(f)}
              label={t('history.exportSearch')}
              testId="history-export"
            />
            <ExportButton
              start={() => historyApi.exportIds(list.selected)}
              label={t('history.exportSelected', { n: list.selected.length })}
              disabled={list.selected.length === 0}
              testId="history-export-selected"
            />
          </>
        }
      >
        <HistoryFilterItems />
      </FilterBar>
      {keyword && (
        <Space style={{ marginBottom: 12 }}>
          {t('history.sort')}
          <Segmented
            size="small"
            value={f.sort === 'relevance' ? 'relevance' : 'time'}
            onChange={(v) =>
              list.search({ ...f, sort: v === 'relevance' ? 'relevance' : undefined, order: undefined })
            }
            options={[
              { value: 'time', label: t('history.sort.time') },
              { value: 'relevance', label: t('history.sort.relevance') },
            ]}
            data-testid="history-sort"
          />
        </Space>
      )}
      {list.query.data?.capped && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('history.capped', { n: HISTORY_LIMITS.searchHits })}
        />
      )}
      <DataTable<HistoryRowDto, HistoryFilter>
        list={list}
        rowKey="id"
        selectable
        testId="history-table"
        columns={columns}
        emptyText={t('history.empty')}
        // A keyword search newest first counts up to HISTORY_LIMITS.searchCount: "2000+" past it.
        totalText={(n) =>
          list.query.data?.totalAtLeast
            ? t('history.totalAtLeast', { total: n })
            : t('common.total', { total: n })
        }
        scroll={{ x: 1100 }}
        expandable={
          keyword
            ? {
                // The matching line under each row, the whole width (a search result, not a column).
                expandedRowKeys: (list.query.data?.list ?? []).map((r) => r.id),
                showExpandColumn: false,
                expandedRowRender: (r) => (
                  <Typography.Text type="secondary" data-testid={`history-snippet-${r.id}`}>
                    {t('history.hits', { n: r.hits })}
                    <Highlight text={r.snippet ?? ''} words={f.keyword ?? ''} />
                  </Typography.Text>
                ),
              }
            : undefined
        }
        onChange={(_p, _f, s, extra) => {
          if (extra.action === 'sort') onTable(s);
        }}
      />
      <HistoryDrawer id={viewing} onClose={() => setViewing(null)} onChanged={() => void list.refresh()} />
    </Card>
  );
}
