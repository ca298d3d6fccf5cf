import { useMemo, useState } from 'react';
import { Button, Card, Form, Input, Space, Table, TreeSelect, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TAG_LIMITS, type TopicDto } from '@kefu/protocol';
import { topicsApi } from '../api';
import { FormModal } from '../../../components/FormModal';
import { ConfirmLink, EditLink } from '../../../components/RowActions';
import { rules } from '../../../lib/formRules';
import { treeData, type TreeNode } from '../../../lib/tree';

interface Fields {
  name: string;
  parentid?: string;
}
type Draft = { item: TopicDto | null; parentid?: string };
type Row = TopicDto & { key: string; children?: Row[] };

/** /setup/service (A09_A03_A08): the tree of service topics; add (at the top or below), rename / move, delete. */
export default function ServiceTopicScreen() {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const qc = useQueryClient();
  const topics = useQuery({ queryKey: ['topics'], queryFn: ({ signal }) => topicsApi.list(signal) });
  const [draft, setDraft] = useState<Draft | null>(null);
  const list = useMemo(() => topics.data ?? [], [topics.data]);
  const byId = useMemo(() => new Map(list.map((x) => [x.id, x])), [list]);
  const rows = useMemo(() => {
    const toRows = (nodes: TreeNode[]): Row[] =>
      nodes.map((n) => ({
        ...byId.get(n.key)!,
        key: n.key,
        children: n.children.length ? toRows(n.children) : undefined,
      }));
    return toRows(treeData(list));
  }, [list, byId]);
  const refresh = () => qc.invalidateQueries({ queryKey: ['topics'] });

  const columns: ColumnsType<Row> = [
    {
      title: t('topic.name'),
      dataIndex: 'name',
      render: (v: string) => <span data-testid={`topic-row-${v}`}>{v}</span>,
    },
    {
      title: t('common.actions'),
      width: 260,
      render: (_: unknown, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => setDraft({ item: null, parentid: row.id })}
            data-testid={`topic-add-${row.name}`}
          >
            {t('topic.newChild')}
          </Button>
          <EditLink onClick={() => setDraft({ item: row })} testId={`topic-edit-${row.name}`} />
          <ConfirmLink
            label={t('common.delete')}
            confirmText={t('topic.deleteConfirm', { name: row.name })}
            onConfirm={() => topicsApi.remove(row.id)}
            onDone={() => void refresh()}
            danger
            testId={`topic-delete-${row.name}`}
          />
        </Space>
      ),
    },
  ];

  const editing = draft?.item ?? null;
  return (
    <Card size="small" data-testid="service-screen">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Text type="secondary">{t('topic.desc')}</Typography.Text>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setDraft({ item: null })}
          data-testid="topic-new"
        >
          {t('topic.new')}
        </Button>
      </Space>
      <Table<Row>
        rowKey="key"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={topics.isFetching}
        pagination={false}
        expandable={{ defaultExpandAllRows: true }}
        locale={{ emptyText: t('topic.none') }}
        key={list.length /* re-expand all when rows arrive */}
        data-testid="topic-table"
      />
      <FormModal<Fields>
        open={draft !== null}
        title={editing ? t('topic.edit') : t('topic.new')}
        testId="topic-form"
        initialValues={
          editing
            ? { name: editing.name, parentid: editing.parentid ?? undefined }
            : { parentid: draft?.parentid }
        }
        onCancel={() => setDraft(null)}
        onSubmit={async (v) => {
          await topicsApi.save({ id: editing?.id, name: v.name, parentid: v.parentid ?? '' });
          setDraft(null);
          void refresh();
        }}
      >
        <Form.Item name="name" label={t('topic.name')} rules={[r.required]}>
          <Input maxLength={TAG_LIMITS.topicName} data-testid="topic-form-name" />
        </Form.Item>
        <Form.Item name="parentid" label={t('topic.parent')}>
          <TreeSelect
            allowClear
            treeDefaultExpandAll
            treeData={treeData(list, editing?.id)}
            data-testid="topic-form-parent"
          />
        </Form.Item>
      </FormModal>
    </Card>
  );
}
