import { useMemo, useState } from 'react';
import { Button, Form, Input, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined, PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  SENSITIVE_ACTIONS,
  SENSITIVE_WORD_MAX,
  type SensitiveAction,
  type SensitiveKind,
  type SensitiveWordDto,
} from '@kefu/protocol';
import { sensitiveApi, type WordFilter } from '../api';
import { DataTable } from '../../../components/DataTable';
import { FilterBar } from '../../../components/FilterBar';
import { FormModal } from '../../../components/FormModal';
import { ConfirmLink, DeleteLink, EditLink } from '../../../components/RowActions';
import { useList } from '../../../components/useList';
import { rules } from '../../../lib/formRules';
import { formatTime } from '../../../lib/time';
import { BatchAddModal } from './BatchAddModal';
import { ActionField } from './ActionField';

export const ACTION_COLORS: Record<SensitiveAction, string> = { mask: 'blue', block: 'red', alert: 'orange' };

interface Fields {
  word: string;
  action: SensitiveAction;
}

/** One list (agent or visitor words): filter, add, batch add, edit, delete, delete selected. */
export function WordList({ kind }: { kind: SensitiveKind }) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const [filterForm] = Form.useForm<WordFilter>();
  const list = useList<WordFilter, SensitiveWordDto>(
    `sensitive-${kind}`,
    (q, signal) => sensitiveApi.page(kind, q, signal),
    {},
  );
  const [draft, setDraft] = useState<SensitiveWordDto | 'new' | null>(null);
  const [batch, setBatch] = useState(false);
  const editing = draft && draft !== 'new' ? draft : null;
  // Stable: FormModal refills the form whenever its initial values change.
  const initial = useMemo<Partial<Fields>>(
    () => (editing ? { word: editing.word, action: editing.action } : { action: 'mask' }),
    [editing],
  );
  const id = `sw-${kind}`;

  const columns: ColumnsType<SensitiveWordDto> = [
    {
      title: t('sw.word'),
      dataIndex: 'word',
      render: (w: string) => <span data-testid={`${id}-word-${w}`}>{w}</span>,
    },
    {
      title: t('sw.action'),
      dataIndex: 'action',
      width: 140,
      render: (a: SensitiveAction) => <Tag color={ACTION_COLORS[a]}>{t(`sw.action.${a}`)}</Tag>,
    },
    { title: t('card.created'), dataIndex: 'createtime', width: 190, render: (v: number) => formatTime(v) },
    {
      title: t('common.actions'),
      width: 140,
      render: (_: unknown, row) => (
        <Space size={0}>
          <EditLink onClick={() => setDraft(row)} testId={`${id}-edit-${row.word}`} />
          <DeleteLink
            name={row.word}
            onDelete={() => sensitiveApi.remove(kind, row.id)}
            onDone={() => void list.refresh()}
            testId={`${id}-delete-${row.word}`}
          />
        </Space>
      ),
    },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t(`sw.desc.${kind}`)} {t('sw.match')}
      </Typography.Paragraph>
      <FilterBar<WordFilter>
        form={filterForm}
        testId={`${id}-filter`}
        onSearch={(v) => list.search({ q: v.q?.trim() || undefined, action: v.action || undefined })}
        extra={
          <>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setDraft('new')}
              data-testid={`${id}-new`}
            >
              {t('sw.new')}
            </Button>
            <Button
              icon={<UnorderedListOutlined />}
              onClick={() => setBatch(true)}
              data-testid={`${id}-batch`}
            >
              {t('sw.batch')}
            </Button>
            <ConfirmLink
              label={
                <>
                  <DeleteOutlined /> {t('sw.batdel', { n: list.selected.length })}
                </>
              }
              confirmText={t('sw.batdelConfirm', { n: list.selected.length })}
              disabled={list.selected.length === 0}
              danger
              onConfirm={() => sensitiveApi.batdel(kind, list.selected)}
              onDone={() => {
                list.setSelected([]);
                void list.refresh();
              }}
              testId={`${id}-batdel`}
            />
          </>
        }
      >
        <Form.Item name="q" label={t('sw.word')}>
          <Input allowClear style={{ width: 180 }} data-testid={`${id}-q`} />
        </Form.Item>
        <Form.Item name="action" label={t('sw.action')}>
          <Select
            allowClear
            style={{ width: 150 }}
            options={SENSITIVE_ACTIONS.map((a) => ({ value: a, label: t(`sw.action.${a}`) }))}
          />
        </Form.Item>
      </FilterBar>
      <DataTable
        list={list}
        rowKey="id"
        selectable
        columns={columns}
        testId={`${id}-table`}
        emptyText={t('sw.empty')}
      />
      <FormModal<Fields>
        open={draft !== null}
        title={editing ? t('sw.edit') : t('sw.new')}
        testId={`${id}-form`}
        initialValues={initial}
        onCancel={() => setDraft(null)}
        onSubmit={async (v) => {
          const body = { word: v.word.trim(), action: v.action };
          if (editing) await sensitiveApi.update(kind, { id: editing.id, ...body });
          else await sensitiveApi.save(kind, body);
          setDraft(null);
          void list.refresh();
        }}
      >
        <Form.Item name="word" label={t('sw.word')} rules={[r.required]}>
          <Input maxLength={SENSITIVE_WORD_MAX} showCount data-testid={`${id}-form-word`} />
        </Form.Item>
        <ActionField testId={`${id}-form-action`} />
      </FormModal>
      <BatchAddModal
        kind={kind}
        open={batch}
        onClose={() => setBatch(false)}
        onAdded={() => void list.refresh()}
      />
    </>
  );
}
