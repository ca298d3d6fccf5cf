import { useEffect, useState } from 'react';
import { Button, Form, Input, Modal, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccessPointDto, FaqItemDto } from '@kefu/protocol';
import { accessApi, moveId } from '../api';
import { AccessScoped } from '../components/AccessPicker';
import { DeleteLink, EditLink, MoveButtons } from '../../../components/RowActions';
import { notify } from '../../../lib/notify';
import { rules } from '../../../lib/formRules';
import { showFieldErrors } from '../components/fieldErrors';

type Draft = { mode: 'create' } | { mode: 'edit'; item: FaqItemDto };
interface Fields {
  question: string;
  answer: string;
}

function FaqForm(props: { appid: string; draft: Draft | null; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const r = rules(i18n.language);
  const { draft } = props;
  useEffect(() => {
    if (!draft) return;
    form.resetFields();
    if (draft.mode === 'edit')
      form.setFieldsValue({ question: draft.item.question, answer: draft.item.answer });
  }, [draft, form]);
  const submit = async (v: Fields) => {
    const body = { question: v.question.trim(), answer: v.answer.trim() };
    try {
      if (draft?.mode === 'edit') await accessApi.faqUpdate(draft.item.id, body);
      else await accessApi.faqSave(props.appid, body);
      props.onSaved();
    } catch (e) {
      showFieldErrors(form, e);
    }
  };
  return (
    <Modal
      open={draft !== null}
      title={t(draft?.mode === 'edit' ? 'faq.edit' : 'faq.new')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ 'data-testid': 'faq-submit' }}
      forceRender
    >
      <Form<Fields> form={form} layout="vertical" onFinish={submit} scrollToFirstError>
        <Form.Item name="question" label={t('faq.question')} rules={[r.required]}>
          <Input data-testid="faq-question" maxLength={200} />
        </Form.Item>
        <Form.Item name="answer" label={t('faq.answer')} rules={[r.required]}>
          <Input.TextArea data-testid="faq-answer" rows={5} maxLength={2000} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function FaqList({
  ap,
  draft,
  setDraft,
}: {
  ap: AccessPointDto;
  draft: Draft | null;
  setDraft: (d: Draft | null) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = ['access', 'faq', ap.id];
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => accessApi.faq(ap.id, signal) });
  const items = list.data ?? [];
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  const move = async (index: number, delta: -1 | 1) => {
    qc.setQueryData(
      key,
      await accessApi.faqSort(
        ap.id,
        moveId(
          items.map((i) => i.id),
          index,
          delta,
        ),
      ),
    );
  };
  const columns: ColumnsType<FaqItemDto> = [
    { title: t('faq.question'), dataIndex: 'question', width: '30%' },
    {
      title: t('faq.answer'),
      dataIndex: 'answer',
      render: (v: string) => (
        <div style={{ whiteSpace: 'pre-wrap', maxHeight: 88, overflow: 'auto' }}>{v}</div>
      ),
    },
    {
      title: t('common.actions'),
      key: 'a',
      width: 240,
      render: (_, item, index) => (
        <Space size={0}>
          <MoveButtons
            index={index}
            count={items.length}
            onMove={move}
            upLabel={t('faq.up')}
            downLabel={t('faq.down')}
          />
          <EditLink onClick={() => setDraft({ mode: 'edit', item })} />
          <DeleteLink
            name={item.question}
            onDelete={() => accessApi.faqRemove(item.id)}
            onDone={() => void refresh()}
          />
        </Space>
      ),
    },
  ];
  return (
    <>
      <Table<FaqItemDto>
        data-testid="faq-table"
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={items}
        loading={list.isFetching}
        pagination={false}
        locale={{ emptyText: t('faq.empty') }}
      />
      <FaqForm
        appid={ap.id}
        draft={draft}
        onClose={() => setDraft(null)}
        onSaved={() => {
          setDraft(null);
          notify.success(t('common.done'));
          void refresh();
        }}
      />
    </>
  );
}

/** /setup/faq: the questions and answers the widget shows. */
export default function FaqScreen() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft | null>(null);
  return (
    <AccessScoped
      testid="faq-screen"
      title={t('menu.faq')}
      extra={() => (
        <Button
          type="primary"
          icon={<PlusOutlined />}
          data-testid="faq-create"
          onClick={() => setDraft({ mode: 'create' })}
        >
          {t('faq.new')}
        </Button>
      )}
    >
      {(ap) => <FaqList key={ap.id} ap={ap} draft={draft} setDraft={setDraft} />}
    </AccessScoped>
  );
}
