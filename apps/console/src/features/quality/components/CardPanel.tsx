import { useMemo, useState } from 'react';
import {
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QUALITY_DEFAULTS, QUALITY_LIMITS, type QualityLabelTypeDto } from '@kefu/protocol';
import { FormModal } from '../../../components/FormModal';
import { DeleteLink, EditLink } from '../../../components/RowActions';
import { rules } from '../../../lib/formRules';
import { qualityApi, type CardFields } from '../api';
import { useCardOptions } from './options';
import { CardItems } from './CardItems';

/** Scorecards (label types) on the left, the chosen card's items on the right. */
export function CardPanel() {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const qc = useQueryClient();
  const cards = useCardOptions();
  const [chosen, setChosen] = useState<string | null>(null);
  const [draft, setDraft] = useState<QualityLabelTypeDto | 'new' | null>(null);
  const editing = draft && draft !== 'new' ? draft : null;
  const list = cards.data ?? [];
  const current = list.find((c) => c.id === chosen) ?? list[0] ?? null;
  const initial = useMemo<Partial<CardFields>>(
    () =>
      editing
        ? { name: editing.name, base: editing.base, passmark: editing.passmark, isdefault: editing.isdefault }
        : { base: QUALITY_DEFAULTS.base, passmark: QUALITY_DEFAULTS.passMark, isdefault: list.length === 0 },
    [editing, list.length],
  );
  const refresh = () => qc.invalidateQueries({ queryKey: ['quality', 'cards'] });
  const card = useQuery({
    queryKey: ['quality', 'card', current?.id, current?.version],
    queryFn: ({ signal }) => qualityApi.items(current!.id, signal),
    enabled: !!current,
  });

  const columns: ColumnsType<QualityLabelTypeDto> = [
    {
      title: t('qc.card.name'),
      dataIndex: 'name',
      render: (v: string, row) => (
        <span data-testid={`qc-card-${v}`}>
          {v} {row.isdefault && <Tag color="blue">{t('qc.card.default')}</Tag>}
        </span>
      ),
    },
    { title: t('qc.card.base'), dataIndex: 'base', width: 70 },
    { title: t('qc.card.passmark'), dataIndex: 'passmark', width: 80 },
    { title: t('qc.card.version'), dataIndex: 'version', width: 60, render: (v: number) => `v${v}` },
    {
      title: t('common.actions'),
      width: 120,
      render: (_: unknown, row) => (
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          <EditLink onClick={() => setDraft(row)} testId={`qc-card-edit-${row.name}`} />
          <DeleteLink
            name={row.name}
            onDelete={() => qualityApi.removeCard(row.id)}
            onDone={() => void refresh()}
            testId={`qc-card-delete-${row.name}`}
          />
        </Space>
      ),
    },
  ];

  return (
    <Row gutter={16}>
      <Col xs={24} xl={10}>
        <Card
          size="small"
          title={t('qc.cards')}
          extra={
            <Button
              type="primary"
              size="small"
              icon={<PlusOutlined />}
              onClick={() => setDraft('new')}
              data-testid="qc-card-new"
            >
              {t('qc.card.new')}
            </Button>
          }
        >
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            {t('qc.card.desc')}
          </Typography.Paragraph>
          <Table<QualityLabelTypeDto>
            size="small"
            rowKey="id"
            data-testid="qc-cards"
            loading={cards.isFetching}
            dataSource={list}
            columns={columns}
            pagination={false}
            locale={{ emptyText: t('qc.card.empty') }}
            onRow={(row) => ({ onClick: () => setChosen(row.id), style: { cursor: 'pointer' } })}
            rowClassName={(row) => (row.id === current?.id ? 'ant-table-row-selected' : '')}
          />
        </Card>
      </Col>
      <Col xs={24} xl={14}>
        {current && (
          <CardItems
            card={current}
            items={card.data ?? []}
            loading={card.isFetching}
            onChanged={() => void refresh()}
          />
        )}
      </Col>
      <FormModal<CardFields>
        open={draft !== null}
        title={editing ? t('qc.card.edit') : t('qc.card.new')}
        testId="qc-card-form"
        initialValues={initial}
        onCancel={() => setDraft(null)}
        onSubmit={async (v) => {
          const body = { ...v, name: v.name.trim(), isdefault: !!v.isdefault, sort: v.sort ?? 0 };
          const saved = editing
            ? await qualityApi.updateCard({ id: editing.id, ...body })
            : await qualityApi.saveCard(body);
          setDraft(null);
          setChosen(saved.id);
          void refresh();
        }}
      >
        <Form.Item name="name" label={t('qc.card.name')} rules={[r.required]}>
          <Input maxLength={64} data-testid="qc-card-form-name" />
        </Form.Item>
        <Space size="large">
          {(['base', 'passmark'] as const).map((name) => (
            <Form.Item key={name} name={name} label={t(`qc.card.${name}`)} rules={[r.required]}>
              <InputNumber
                min={0}
                max={QUALITY_LIMITS.maxPoints}
                precision={0}
                data-testid={`qc-card-form-${name}`}
              />
            </Form.Item>
          ))}
          <Form.Item name="isdefault" label={t('qc.card.default')} valuePropName="checked">
            <Switch data-testid="qc-card-form-default" />
          </Form.Item>
        </Space>
      </FormModal>
    </Row>
  );
}
