import { useMemo, useState } from 'react';
import { App, Button, Card, Form, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  DownloadOutlined,
  ImportOutlined,
  PlusOutlined,
  ReloadOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  KB_ITEM_STATES,
  KB_SHEET_HEADERS,
  richTextPlain,
  type KbItemDto,
  type KbItemState,
  type KbSheetColumn,
} from '@kefu/protocol';
import { kbApi, type KbFilter } from '../api';
import { TypeTree } from '../components/TypeTree';
import { ItemFormItems, toFields, toFormValues, type ItemFormValues } from '../components/ItemFormItems';
import { SynonymsDrawer } from '../components/SynonymsDrawer';
import { topicsApi } from '../../tags/api';
import { DataTable } from '../../../components/DataTable';
import { ExportButton } from '../../../components/ExportButton';
import { FilterBar } from '../../../components/FilterBar';
import { FormModal } from '../../../components/FormModal';
import { ImportDialog } from '../../../components/ImportDialog';
import { DeleteLink, EditLink } from '../../../components/RowActions';
import { useList } from '../../../components/useList';
import { useConfirmAction } from '../../../lib/confirm';
import { formatTime } from '../../../lib/time';

interface FilterFields {
  q?: string;
  state?: KbItemState;
  topic?: string;
}

const stateOf = (i: KbItemDto, now: number): { key: string; color: string } => {
  if (!i.enabled) return { key: 'disabled', color: 'default' };
  if (i.endtime !== null && i.endtime < now) return { key: 'expired', color: 'orange' };
  if (!i.active) return { key: 'pending', color: 'gold' };
  return { key: 'active', color: 'green' };
};

/**
 * /setup/knowlede (A09_A05_A02): the type tree, the items (search, state and topic filters, create / edit
 * with similar questions, rich-text answer, validity and topics, enable / disable / delete in batches),
 * import from .xlsx with its template, exports, the synonym list and the index rebuild.
 */
export default function KnowledgeScreen() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const confirm = useConfirmAction();
  const [filterForm] = Form.useForm<FilterFields>();
  const [typeid, setTypeid] = useState('');
  const list = useList<KbFilter, KbItemDto>('kbItems', (q, signal) => kbApi.page(q, signal), {});
  const types = useQuery({ queryKey: ['kbTypes'], queryFn: ({ signal }) => kbApi.types(signal) });
  const topics = useQuery({ queryKey: ['topics'], queryFn: ({ signal }) => topicsApi.list(signal) });
  const [editing, setEditing] = useState<KbItemDto | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [synonyms, setSynonyms] = useState(false);
  const [training, setTraining] = useState(false);
  const lang = i18n.language.startsWith('en') ? 'en' : 'zh';
  const current = editing && editing !== 'new' ? editing : null;
  const initial = useMemo(() => toFormValues(current, typeid), [current, typeid]);
  const refresh = () => {
    void list.refresh();
    void qc.invalidateQueries({ queryKey: ['kbTypes'] });
  };
  const filterBy = (v: FilterFields, type = typeid) =>
    list.search({ typeid: type || undefined, q: v.q?.trim() || undefined, state: v.state, topic: v.topic });
  const now = Date.now();
  const selected = list.selected;

  const columns: ColumnsType<KbItemDto> = [
    {
      title: t('kb.question'),
      dataIndex: 'question',
      render: (v: string, row) => (
        <Space direction="vertical" size={0}>
          <Typography.Text data-testid={`kb-row-${v}`}>{v}</Typography.Text>
          {row.similar.length > 0 && (
            <Tooltip title={row.similar.join('\n')}>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('kb.similarCount', { n: row.similar.length })}
              </Typography.Text>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: t('kb.answer'),
      dataIndex: 'answer',
      ellipsis: true,
      render: (v: string) => richTextPlain(v).replace(/\s+/g, ' '),
    },
    { title: t('kb.type'), dataIndex: 'typename', width: 110 },
    {
      title: t('kb.state'),
      width: 96,
      render: (_: unknown, row) => {
        const s = stateOf(row, now);
        return <Tag color={s.color}>{t(`kb.state.${s.key}`)}</Tag>;
      },
    },
    { title: t('kb.hits'), dataIndex: 'hits', width: 90 },
    { title: t('kb.updated'), dataIndex: 'updatetime', width: 170, render: (v: number) => formatTime(v) },
    {
      title: t('common.actions'),
      width: 130,
      fixed: 'right',
      render: (_: unknown, row) => (
        <Space size={0}>
          <EditLink onClick={() => setEditing(row)} testId={`kb-edit-${row.question}`} />
          <DeleteLink
            name={row.question}
            onDelete={() => kbApi.remove(row.id)}
            onDone={refresh}
            testId={`kb-delete-${row.question}`}
          />
        </Space>
      ),
    },
  ];

  const batch = async (enabled: boolean) => {
    await kbApi.setEnabled(selected, enabled);
    void message.success(t('common.done'));
    refresh();
  };

  return (
    <Card size="small" data-testid="knowledge-screen">
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        <div style={{ width: 220, flexShrink: 0 }}>
          <TypeTree
            types={types.data ?? []}
            selected={typeid}
            onSelect={(id) => {
              setTypeid(id);
              filterBy(filterForm.getFieldsValue(), id);
            }}
            onChanged={refresh}
          />
        </div>
        <div style={{ flex: 1, minWidth: 0 }}>
          <FilterBar<FilterFields> form={filterForm} testId="kb-filter" onSearch={(v) => filterBy(v)}>
            <Form.Item name="q" label={t('kb.q')}>
              <Input
                allowClear
                placeholder={t('kb.qPlaceholder')}
                style={{ width: 200 }}
                data-testid="kb-q"
              />
            </Form.Item>
            <Form.Item name="state" label={t('kb.state')}>
              <Select
                allowClear
                style={{ width: 110 }}
                options={KB_ITEM_STATES.map((s) => ({ value: s, label: t(`kb.state.${s}`) }))}
              />
            </Form.Item>
            <Form.Item name="topic" label={t('kb.topic')}>
              <Select
                allowClear
                style={{ width: 130 }}
                options={(topics.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
              />
            </Form.Item>
          </FilterBar>
          <Space wrap style={{ marginBottom: 12 }}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="kb-new"
            >
              {t('kb.new')}
            </Button>
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)} data-testid="kb-import-open">
              {t('kb.import')}
            </Button>
            <ExportButton testId="kb-export" start={() => kbApi.exportSearch(list.filter)} />
            <ExportButton testId="kb-export-all" label={t('kb.exportAll')} start={() => kbApi.exportAll()} />
            <Button icon={<SwapOutlined />} onClick={() => setSynonyms(true)} data-testid="kb-synonyms-open">
              {t('kb.synonyms')}
            </Button>
            <Button
              icon={<ReloadOutlined />}
              loading={training}
              data-testid="kb-train"
              onClick={async () => {
                setTraining(true);
                try {
                  const r = await kbApi.train();
                  void message.success(t('kb.trained', { ...r }));
                } finally {
                  setTraining(false);
                }
              }}
            >
              {t('kb.train')}
            </Button>
            <Button disabled={!selected.length} onClick={() => void batch(true)} data-testid="kb-enable">
              {t('kb.enable')}
            </Button>
            <Button disabled={!selected.length} onClick={() => void batch(false)} data-testid="kb-disable">
              {t('kb.disable')}
            </Button>
            <Button
              danger
              disabled={!selected.length}
              data-testid="kb-batch-delete"
              onClick={() =>
                confirm(
                  t('kb.batchDeleteConfirm', { n: selected.length }),
                  () => kbApi.removeMany(selected),
                  () => {
                    list.setSelected([]);
                    refresh();
                  },
                )
              }
            >
              {t('kb.batchDelete')}
            </Button>
          </Space>
          <DataTable
            list={list}
            rowKey="id"
            selectable
            columns={columns}
            testId="kb-table"
            emptyText={t('kb.none')}
            scroll={{ x: 960 }}
          />
        </div>
      </div>
      <FormModal<ItemFormValues>
        open={editing !== null}
        title={current ? t('kb.edit') : t('kb.new')}
        testId="kb-form"
        width={680}
        initialValues={initial}
        onCancel={() => setEditing(null)}
        onSubmit={async (v) => {
          if (current) await kbApi.update(current.id, toFields(v));
          else await kbApi.save(toFields(v));
          setEditing(null);
          refresh();
        }}
      >
        <ItemFormItems types={types.data ?? []} topics={topics.data ?? []} />
      </FormModal>
      <ImportDialog
        open={importing}
        title={t('kb.importTitle')}
        hint={t('kb.importHint')}
        upload={(file) => kbApi.import(file)}
        doneText={(r) => t('kb.importDone', { ...r })}
        columnName={(f) => KB_SHEET_HEADERS[lang][f as KbSheetColumn] ?? f}
        onClose={() => setImporting(false)}
        onImported={refresh}
        testId="kb-import"
        extra={
          <Button
            icon={<DownloadOutlined />}
            style={{ marginBottom: 12 }}
            onClick={() => void kbApi.template(lang)}
            data-testid="kb-template"
          >
            {t('kb.template')}
          </Button>
        }
      />
      <SynonymsDrawer open={synonyms} onClose={() => setSynonyms(false)} />
    </Card>
  );
}
