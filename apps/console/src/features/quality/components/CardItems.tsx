import { useMemo, useState } from 'react';
import { Button, Card, Form, Input, InputNumber, Radio, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  QUALITY_ITEM_KINDS,
  QUALITY_LIMITS,
  type QualityLabelDto,
  type QualityLabelTypeDto,
} from '@kefu/protocol';
import { FormModal } from '../../../components/FormModal';
import { DeleteLink, EditLink } from '../../../components/RowActions';
import { rules } from '../../../lib/formRules';
import { qualityApi, type ItemFields } from '../api';

/** The items of one card: heading, name, deduct / add, points, fatal (致命项). */
export function CardItems(props: {
  card: QualityLabelTypeDto;
  items: QualityLabelDto[];
  loading: boolean;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const [draft, setDraft] = useState<QualityLabelDto | 'new' | null>(null);
  const editing = draft && draft !== 'new' ? draft : null;
  const initial = useMemo<Partial<ItemFields>>(
    () =>
      editing
        ? {
            groupname: editing.groupname,
            name: editing.name,
            description: editing.description,
            kind: editing.kind,
            points: editing.points,
            fatal: editing.fatal,
            sort: editing.sort,
          }
        : { kind: 'deduct', points: 5, fatal: false, sort: props.items.length },
    [editing, props.items.length],
  );
  const deducts = props.items.filter((i) => i.kind === 'deduct').reduce((s, i) => s + i.points, 0);
  const adds = props.items.filter((i) => i.kind === 'add').reduce((s, i) => s + i.points, 0);

  const columns: ColumnsType<QualityLabelDto> = [
    { title: t('qc.item.group'), dataIndex: 'groupname', width: 110 },
    {
      title: t('qc.item.name'),
      dataIndex: 'name',
      render: (v: string, row) => (
        <span data-testid={`qc-item-${v}`}>
          {v} {row.fatal && <Tag color="magenta">{t('qc.fatal')}</Tag>}
          {row.description && (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {row.description}
            </Typography.Text>
          )}
        </span>
      ),
    },
    {
      title: t('qc.item.kind'),
      dataIndex: 'kind',
      width: 90,
      render: (k: QualityLabelDto['kind']) => (
        <Tag color={k === 'add' ? 'green' : 'orange'}>{t(`qc.kind.${k}`)}</Tag>
      ),
    },
    {
      title: t('qc.item.points'),
      dataIndex: 'points',
      width: 70,
      render: (p: number, row) => `${row.kind === 'add' ? '+' : '−'}${p}`,
    },
    {
      title: t('common.actions'),
      width: 120,
      render: (_: unknown, row) => (
        <Space size={0}>
          <EditLink onClick={() => setDraft(row)} testId={`qc-item-edit-${row.name}`} />
          <DeleteLink
            name={row.name}
            onDelete={() => qualityApi.removeItem(row.id)}
            onDone={props.onChanged}
            testId={`qc-item-delete-${row.name}`}
          />
        </Space>
      ),
    },
  ];

  return (
    <Card
      size="small"
      data-testid="qc-items"
      title={
        <Space>
          {props.card.name}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('qc.card.summary', {
              base: props.card.base,
              passmark: props.card.passmark,
              deducts,
              adds,
              version: props.card.version,
            })}
          </Typography.Text>
        </Space>
      }
      extra={
        <Button
          size="small"
          type="primary"
          icon={<PlusOutlined />}
          disabled={props.items.length >= QUALITY_LIMITS.itemsPerCard}
          onClick={() => setDraft('new')}
          data-testid="qc-item-new"
        >
          {t('qc.item.new')}
        </Button>
      }
    >
      <Table<QualityLabelDto>
        size="small"
        rowKey="id"
        loading={props.loading}
        dataSource={props.items}
        columns={columns}
        pagination={false}
        locale={{ emptyText: t('qc.item.empty') }}
      />
      <FormModal<ItemFields>
        open={draft !== null}
        title={editing ? t('qc.item.edit') : t('qc.item.new')}
        testId="qc-item-form"
        initialValues={initial}
        onCancel={() => setDraft(null)}
        onSubmit={async (v) => {
          const body = {
            groupname: v.groupname?.trim() ?? '',
            name: v.name.trim(),
            description: v.description?.trim() ?? '',
            kind: v.kind,
            points: v.points,
            fatal: v.kind === 'deduct' && !!v.fatal,
            sort: v.sort ?? 0,
          };
          if (editing) await qualityApi.updateItem({ id: editing.id, ...body });
          else await qualityApi.saveItem({ typeid: props.card.id, ...body });
          setDraft(null);
          props.onChanged();
        }}
      >
        {(form) => (
          <>
            <Form.Item name="groupname" label={t('qc.item.group')} extra={t('qc.item.groupHint')}>
              <Input maxLength={64} data-testid="qc-item-form-group" />
            </Form.Item>
            <Form.Item name="name" label={t('qc.item.name')} rules={[r.required]}>
              <Input maxLength={64} data-testid="qc-item-form-name" />
            </Form.Item>
            <Form.Item name="description" label={t('qc.item.description')}>
              <Input.TextArea rows={2} maxLength={255} />
            </Form.Item>
            <Space size="large" align="start">
              <Form.Item name="kind" label={t('qc.item.kind')}>
                <Radio.Group
                  data-testid="qc-item-form-kind"
                  options={QUALITY_ITEM_KINDS.map((k) => ({ value: k, label: t(`qc.kind.${k}`) }))}
                  optionType="button"
                  onChange={(e) => {
                    if (e.target.value === 'add') form.setFieldValue('fatal', false);
                  }}
                />
              </Form.Item>
              <Form.Item name="points" label={t('qc.item.points')} rules={[r.required]}>
                <InputNumber
                  min={1}
                  max={QUALITY_LIMITS.maxPoints}
                  precision={0}
                  data-testid="qc-item-form-points"
                />
              </Form.Item>
              <Form.Item noStyle dependencies={['kind']}>
                {() => (
                  <Form.Item
                    name="fatal"
                    label={t('qc.fatal')}
                    valuePropName="checked"
                    tooltip={t('qc.item.fatalHint')}
                  >
                    <Switch
                      disabled={form.getFieldValue('kind') === 'add'}
                      data-testid="qc-item-form-fatal"
                    />
                  </Form.Item>
                )}
              </Form.Item>
            </Space>
          </>
        )}
      </FormModal>
    </Card>
  );
}
