import { useMemo, useState } from 'react';
import { Button, Card, DatePicker, Form, Input, Select, Space, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ImportOutlined, MergeCellsOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GENDERS, type ContactDto, type Gender } from '@kefu/protocol';
import { contactsApi, type ContactFilter } from '../api';
import {
  ContactFormItems,
  toFields,
  toFormValues,
  type ContactFormValues,
} from '../components/ContactFormItems';
import { ContactDrawer } from '../components/ContactDrawer';
import { ImportDialog } from '../components/ImportDialog';
import { MergeDialog } from '../components/MergeDialog';
import { tagsApi } from '../../tags/api';
import { TagChips } from '../../tags/components/TagChips';
import { DataTable } from '../../../components/DataTable';
import { ExportButton } from '../../../components/ExportButton';
import { FilterBar } from '../../../components/FilterBar';
import { FormModal } from '../../../components/FormModal';
import { DeleteLink, EditLink } from '../../../components/RowActions';
import { useList } from '../../../components/useList';
import { datePresets, type Range } from '../../../lib/dates';
import { formatTime } from '../../../lib/time';

interface FilterFields {
  q?: string;
  tag?: string;
  gender?: Gender;
  range?: Range | null;
}

const toFilter = (v: FilterFields): ContactFilter => ({
  q: v.q?.trim() || undefined,
  tag: v.tag || undefined,
  gender: v.gender,
  begin: v.range?.[0]?.valueOf(),
  end: v.range?.[1]?.valueOf(),
});

/** /card (A05): contacts — search, detail with their conversations, create / edit / delete, merge, export, import. */
export default function ContactsScreen() {
  const { t } = useTranslation();
  const [filterForm] = Form.useForm<FilterFields>();
  const list = useList<ContactFilter, ContactDto>('contacts', (q, signal) => contactsApi.page(q, signal), {});
  const tags = useQuery({
    queryKey: ['tags', 'user'],
    queryFn: ({ signal }) => tagsApi.list('user', signal),
  });
  const [editing, setEditing] = useState<ContactDto | 'new' | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [merging, setMerging] = useState<[ContactDto, ContactDto] | null>(null);
  const rows = list.query.data?.list ?? [];
  const current = editing && editing !== 'new' ? editing : null;
  const initial = useMemo<ContactFormValues>(
    () => (current ? toFormValues(current) : { gender: '' }),
    [current],
  );
  const selectedRows = rows.filter((r) => list.selected.includes(r.id));
  const qc = useQueryClient();
  const refresh = () => {
    void list.refresh();
    void qc.invalidateQueries({ queryKey: ['contact'] });
  };
  const gender = (g: Gender) => t(g ? `card.gender.${g}` : 'card.gender.unknown');

  const columns: ColumnsType<ContactDto> = [
    {
      title: t('card.name'),
      dataIndex: 'name',
      render: (v: string, row) => (
        <Typography.Link onClick={() => setViewing(row.id)} data-testid={`contact-open-${v}`}>
          {v}
        </Typography.Link>
      ),
    },
    { title: t('card.phone'), dataIndex: 'phone', width: 130 },
    {
      title: t('card.email'),
      dataIndex: 'email',
      ellipsis: true,
      render: (v: string) => v.split(',').join(', '),
    },
    { title: t('card.company'), dataIndex: 'company', ellipsis: true },
    { title: t('card.gender'), dataIndex: 'gender', width: 80, render: (v: Gender) => (v ? gender(v) : '') },
    { title: t('card.tags'), dataIndex: 'tags', render: (v: ContactDto['tags']) => <TagChips tags={v} /> },
    { title: t('card.owner'), dataIndex: 'ownername', width: 110 },
    { title: t('card.updated'), dataIndex: 'updatetime', width: 170, render: (v: number) => formatTime(v) },
    {
      title: t('common.actions'),
      width: 130,
      fixed: 'right',
      render: (_: unknown, row) => (
        <Space size={0}>
          <EditLink onClick={() => setEditing(row)} testId={`contact-edit-${row.name}`} />
          <DeleteLink
            name={row.name}
            onDelete={() => contactsApi.remove(row.id)}
            onDone={refresh}
            testId={`contact-delete-${row.name}`}
          />
        </Space>
      ),
    },
  ];

  return (
    <Card size="small" data-testid="card-screen">
      <FilterBar<FilterFields>
        form={filterForm}
        testId="card-filter"
        onSearch={(v) => list.search(toFilter(v))}
        extra={
          <>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="contact-new"
            >
              {t('card.new')}
            </Button>
            <ExportButton
              testId="contact-export"
              label={list.selected.length ? t('card.exportSelected', { n: list.selected.length }) : undefined}
              start={() =>
                list.selected.length
                  ? contactsApi.exportIds(list.selected)
                  : contactsApi.exportSearch(list.filter)
              }
            />
            <Button
              icon={<ImportOutlined />}
              onClick={() => setImporting(true)}
              data-testid="contact-import-open"
            >
              {t('card.import')}
            </Button>
            <Button
              icon={<MergeCellsOutlined />}
              disabled={selectedRows.length !== 2}
              onClick={() => setMerging([selectedRows[0]!, selectedRows[1]!])}
              data-testid="contact-merge"
            >
              {t('card.merge')}
            </Button>
          </>
        }
      >
        <Form.Item name="q" label={t('card.q')}>
          <Input
            allowClear
            placeholder={t('card.qPlaceholder')}
            style={{ width: 220 }}
            data-testid="card-q"
          />
        </Form.Item>
        <Form.Item name="tag" label={t('card.tags')}>
          <Select
            allowClear
            style={{ width: 140 }}
            data-testid="card-tag"
            options={(tags.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
          />
        </Form.Item>
        <Form.Item name="gender" label={t('card.gender')}>
          <Select
            allowClear
            style={{ width: 100 }}
            data-testid="card-gender"
            options={GENDERS.filter(Boolean).map((g) => ({ value: g, label: gender(g) }))}
          />
        </Form.Item>
        <Form.Item name="range" label={t('card.created')}>
          <DatePicker.RangePicker presets={datePresets(t)} data-testid="card-range" />
        </Form.Item>
      </FilterBar>
      <DataTable
        list={list}
        rowKey="id"
        selectable
        columns={columns}
        testId="card-table"
        scroll={{ x: 1100 }}
      />
      <FormModal<ContactFormValues>
        open={editing !== null}
        title={current ? t('card.edit') : t('card.new')}
        testId="contact-form"
        width={560}
        initialValues={initial}
        onCancel={() => setEditing(null)}
        onSubmit={async (v) => {
          if (current) await contactsApi.update(current.id, toFields(v));
          else await contactsApi.save(toFields(v));
          setEditing(null);
          refresh();
        }}
      >
        <ContactFormItems />
      </FormModal>
      <ContactDrawer
        id={viewing}
        onClose={() => setViewing(null)}
        extra={
          viewing && rows.some((r) => r.id === viewing) ? (
            <EditLink
              onClick={() => setEditing(rows.find((r) => r.id === viewing)!)}
              testId="contact-drawer-edit"
            />
          ) : undefined
        }
      />
      <ImportDialog open={importing} onClose={() => setImporting(false)} onImported={refresh} />
      <MergeDialog
        pair={merging}
        onClose={() => setMerging(null)}
        onMerged={() => {
          setMerging(null);
          list.setSelected([]);
          refresh();
        }}
      />
    </Card>
  );
}
