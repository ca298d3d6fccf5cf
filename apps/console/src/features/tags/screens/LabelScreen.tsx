import { useState } from 'react';
import { Button, Card, ColorPicker, Form, Input, Space, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TAG_COLORS, TAG_LIMITS, type TagDto, type TagType } from '@kefu/protocol';
import { tagsApi } from '../api';
import { DataTable } from '../../../components/DataTable';
import { FilterBar } from '../../../components/FilterBar';
import { FormModal } from '../../../components/FormModal';
import { DeleteLink, EditLink } from '../../../components/RowActions';
import { useList } from '../../../components/useList';
import { rules } from '../../../lib/formRules';
import { formatTime } from '../../../lib/time';

interface Fields {
  name: string;
  color: string;
}

/** One tag type's list: name filter, the tags with their colour and use count, create / edit / delete. */
function TagList({ tagtype }: { tagtype: TagType }) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const [filterForm] = Form.useForm<{ q?: string }>();
  const list = useList(`tags-${tagtype}`, (q, signal) => tagsApi.page({ ...q, tagtype }, signal), { q: '' });
  const [draft, setDraft] = useState<TagDto | 'new' | null>(null);
  const editing = draft && draft !== 'new' ? draft : null;
  const id = `label-${tagtype}`;

  const columns: ColumnsType<TagDto> = [
    {
      title: t('label.name'),
      dataIndex: 'name',
      render: (_: string, row) => (
        <Tag color={row.color} data-testid={`${id}-tag-${row.name}`}>
          {row.name}
        </Tag>
      ),
    },
    {
      title: t('label.color'),
      dataIndex: 'color',
      width: 140,
      render: (v: string) => (
        <Space size={6}>
          <span
            style={{
              display: 'inline-block',
              width: 14,
              height: 14,
              borderRadius: 3,
              background: v,
              verticalAlign: 'middle',
            }}
          />
          {v}
        </Space>
      ),
    },
    { title: t('label.times'), dataIndex: 'times', width: 110 },
    { title: t('card.created'), dataIndex: 'createtime', width: 190, render: (v: number) => formatTime(v) },
    {
      title: t('common.actions'),
      width: 140,
      render: (_: unknown, row) => (
        <Space size={0}>
          <EditLink onClick={() => setDraft(row)} testId={`${id}-edit-${row.name}`} />
          <DeleteLink
            name={row.name}
            onDelete={() => tagsApi.remove(row.id)}
            onDone={() => void list.refresh()}
            testId={`${id}-delete-${row.name}`}
          />
        </Space>
      ),
    },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary">{t(`label.desc.${tagtype}`)}</Typography.Paragraph>
      <FilterBar
        form={filterForm}
        testId={`${id}-filter`}
        onSearch={(v) => list.search({ q: v.q?.trim() ?? '' })}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDraft('new')}
            data-testid={`${id}-new`}
          >
            {t('label.new')}
          </Button>
        }
      >
        <Form.Item name="q" label={t('label.name')}>
          <Input allowClear style={{ width: 200 }} data-testid={`${id}-q`} />
        </Form.Item>
      </FilterBar>
      <DataTable list={list} rowKey="id" columns={columns} testId={`${id}-table`} />
      <FormModal<Fields>
        open={draft !== null}
        title={editing ? t('label.edit') : t('label.new')}
        testId={`${id}-form`}
        initialValues={
          editing
            ? { name: editing.name, color: editing.color }
            : // A new tag takes the next preset, so neighbours differ.
              { color: TAG_COLORS[(list.query.data?.total ?? 0) % TAG_COLORS.length] }
        }
        onCancel={() => setDraft(null)}
        onSubmit={async (v) => {
          if (editing) await tagsApi.update({ id: editing.id, ...v });
          else await tagsApi.save({ ...v, tagtype });
          setDraft(null);
          void list.refresh();
        }}
      >
        <Form.Item name="name" label={t('label.name')} rules={[r.required]}>
          <Input maxLength={TAG_LIMITS.name} showCount data-testid={`${id}-form-name`} />
        </Form.Item>
        <Form.Item
          name="color"
          label={t('label.color')}
          // The picker answers a colour object; the API takes #RRGGBB.
          getValueFromEvent={(c: { toHexString(): string }) => c.toHexString().toUpperCase()}
        >
          <ColorPicker
            disabledAlpha
            showText
            presets={[{ label: t('label.color'), colors: [...TAG_COLORS] }]}
            data-testid={`${id}-form-color`}
          />
        </Form.Item>
      </FormModal>
    </>
  );
}

/** /setup/label (A09_A03_A07): conversation tags and contact tags. */
export default function LabelScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<TagType>('summary');
  return (
    <Card size="small" data-testid="label-screen">
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as TagType)}
        items={(['summary', 'user'] as const).map((k) => ({
          key: k,
          label: <span data-testid={`label-tab-${k}`}>{t(`label.${k}`)}</span>,
          children: <TagList tagtype={k} />,
        }))}
        destroyOnHidden
      />
    </Card>
  );
}
