import { useEffect, useState } from 'react';
import { Button, Card, Col, Form, Input, Modal, Row, Space, Switch, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { OpinionDto } from '@kefu/protocol';
import { satisfactionApi, type SatisfactionDraft } from '../api';
import { moveId } from '../../access/api';
import { DeleteLink, EditLink, MoveButtons } from '../../../components/RowActions';
import { notify } from '../../../lib/notify';
import { rules } from '../../../lib/formRules';
import { showFieldErrors } from '../../access/components/fieldErrors';
import { TranslationsButton } from '../../texts/components/TranslationsButton';

const KEY = ['satisfaction'];

function Settings() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const r = rules(i18n.language);
  const [form] = Form.useForm<SatisfactionDraft>();
  const data = useQuery({ queryKey: KEY, queryFn: ({ signal }) => satisfactionApi.data(signal) });
  useEffect(() => {
    if (data.data) form.setFieldsValue({ ...data.data, levels: data.data.levels.map((l) => l.name) });
  }, [data.data, form]);
  const save = async (v: SatisfactionDraft) => {
    try {
      await satisfactionApi.update(v);
      notify.success(t('common.done'));
      void qc.invalidateQueries({ queryKey: KEY });
    } catch (e) {
      showFieldErrors(form, e);
    }
  };
  const toggle = async (on: boolean) => {
    await satisfactionApi.enabled(on);
    void qc.invalidateQueries({ queryKey: KEY });
  };
  return (
    <Card
      title={t('satis.settings')}
      loading={data.isLoading}
      data-testid="satis-settings"
      extra={
        <TranslationsButton
          scope="satisfaction"
          labels={{
            satisftext: t('satis.text'),
            ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`level${n}`, t('satis.level', { n })])),
          }}
        />
      }
    >
      <Space style={{ marginBottom: 16 }}>
        <span>{t('satis.enabled')}</span>
        <Switch data-testid="satis-enabled" checked={data.data?.enabled} onChange={(v) => void toggle(v)} />
      </Space>
      <Form<SatisfactionDraft> form={form} layout="vertical" onFinish={(v) => void save(v)}>
        <Form.Item name="text" label={t('satis.text')}>
          <Input.TextArea data-testid="satis-text" rows={2} maxLength={200} />
        </Form.Item>
        <Space size="large">
          <Form.Item name="multi" label={t('satis.multi')} valuePropName="checked">
            <Switch data-testid="satis-multi" />
          </Form.Item>
          <Form.Item name="comment" label={t('satis.comment')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
        <Form.List name="levels">
          {(fields) => (
            <Form.Item label={t('satis.levels')} required>
              {fields.map((f, i) => (
                <Form.Item key={f.key} name={f.name} rules={[r.required]} style={{ marginBottom: 8 }}>
                  <Input
                    prefix={
                      <span style={{ color: '#999', width: 52 }}>{t('satis.level', { n: i + 1 })}</span>
                    }
                    maxLength={20}
                  />
                </Form.Item>
              ))}
            </Form.Item>
          )}
        </Form.List>
        <Button type="primary" htmlType="submit" data-testid="satis-save">
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

function Opinions() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const r = rules(i18n.language);
  const key = ['opinions'];
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => satisfactionApi.opinions(signal) });
  const items = list.data ?? [];
  const [draft, setDraft] = useState<{ item: OpinionDto | null } | null>(null);
  const [form] = Form.useForm<{ name: string }>();
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  useEffect(() => {
    if (draft) form.setFieldsValue({ name: draft.item?.name ?? '' });
  }, [draft, form]);
  const submit = async (v: { name: string }) => {
    try {
      if (draft?.item) await satisfactionApi.updateOpinion(draft.item.id, v.name.trim());
      else await satisfactionApi.saveOpinion(v.name.trim());
      setDraft(null);
      notify.success(t('common.done'));
      void refresh();
    } catch (e) {
      showFieldErrors(form, e);
    }
  };
  const move = async (i: number, d: -1 | 1) =>
    qc.setQueryData(
      key,
      await satisfactionApi.sortOpinions(
        moveId(
          items.map((o) => o.id),
          i,
          d,
        ),
      ),
    );
  const columns: ColumnsType<OpinionDto> = [
    { title: '#', key: 'i', width: 48, render: (_, __, i) => i + 1 },
    {
      title: t('satis.opinion'),
      dataIndex: 'name',
      render: (v: string) => <span data-testid={`opinion-row-${v}`}>{v}</span>,
    },
    {
      title: t('common.actions'),
      key: 'a',
      width: 340,
      render: (_, o, i) => (
        <Space size={0}>
          <MoveButtons
            index={i}
            count={items.length}
            onMove={move}
            upLabel={t('faq.up')}
            downLabel={t('faq.down')}
            downTestId={`opinion-down-${o.name}`}
          />
          <EditLink onClick={() => setDraft({ item: o })} />
          <TranslationsButton scope="opinion" rowid={o.id} labels={{ name: t('satis.opinion') }} />
          <DeleteLink
            name={o.name}
            onDelete={() => satisfactionApi.removeOpinion(o.id)}
            onDone={() => void refresh()}
          />
        </Space>
      ),
    },
  ];
  return (
    <Card
      title={t('satis.opinions')}
      data-testid="satis-opinions"
      extra={
        <Button
          type="primary"
          size="small"
          icon={<PlusOutlined />}
          data-testid="opinion-create"
          onClick={() => setDraft({ item: null })}
        >
          {t('satis.newOpinion')}
        </Button>
      }
    >
      <Table<OpinionDto>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={items}
        loading={list.isFetching}
        pagination={false}
        locale={{ emptyText: t('satis.opinionEmpty') }}
      />
      <Modal
        open={!!draft}
        title={t(draft?.item ? 'satis.editOpinion' : 'satis.newOpinion')}
        onCancel={() => setDraft(null)}
        onOk={() => form.submit()}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ 'data-testid': 'opinion-submit' }}
        forceRender
      >
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)}>
          <Form.Item name="name" label={t('satis.opinion')} rules={[r.required]}>
            <Input data-testid="opinion-name" maxLength={50} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

/** /setup/satisfaction: the rating settings and the opinion list (with its order). */
export default function SatisfactionScreen() {
  return (
    <Row gutter={16} data-testid="satisfaction-screen">
      <Col xs={24} xl={12}>
        <Settings />
      </Col>
      <Col xs={24} xl={12}>
        <Opinions />
      </Col>
    </Row>
  );
}
