import { useState } from 'react';
import { Form, Input, Modal, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { talkApi } from '../api';
import type { ChatEntry } from '../model/chatList';
import { userDisplayName } from '@kefu/protocol';

interface Props {
  chat: ChatEntry | null;
  onClose: () => void;
}

/** Transfer a chat to a ready colleague, or to a skill group (GET /api/talk/transfer/form, /transfer). */
export function TransferDialog({ chat, onClose }: Props) {
  const { t } = useTranslation();
  const [organ, setOrgan] = useState<string | undefined>();
  const [agentno, setAgentno] = useState<string | undefined>();
  const [memo, setMemo] = useState('');
  const { saving, run } = useSaving();
  const form = useQuery({
    queryKey: ['dialogue', 'transferForm', organ],
    queryFn: () => talkApi.transferForm(organ),
    enabled: !!chat,
    staleTime: 0,
  });

  const close = () => {
    setOrgan(undefined);
    setAgentno(undefined);
    setMemo('');
    onClose();
  };
  const submit = async () => {
    if (!chat || (!agentno && !organ)) return;
    await run(async () => {
      await talkApi.transfer({ agentuserid: chat.id, agentno, organ, memo });
      notify.success(t('dialogue.transfer.sent'));
      close();
    });
  };

  return (
    <Modal
      open={!!chat}
      title={t('dialogue.transfer.title', { name: chat?.username ?? '' })}
      onCancel={close}
      onOk={() => void submit()}
      okText={t('dialogue.transfer.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ disabled: !agentno && !organ, 'data-testid': 'transfer-submit' }}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('dialogue.transfer.group')}>
          <Select
            allowClear
            data-testid="transfer-group"
            placeholder={t('dialogue.transfer.anyGroup')}
            value={organ}
            onChange={(v?: string) => {
              setOrgan(v);
              setAgentno(undefined);
            }}
            options={(form.data?.skillList ?? []).map((g) => ({ value: g.id, label: g.name }))}
          />
        </Form.Item>
        <Form.Item label={t('dialogue.transfer.agent')} extra={t('dialogue.transfer.agentHint')}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            data-testid="transfer-agent"
            loading={form.isFetching}
            value={agentno}
            onChange={(v?: string) => setAgentno(v)}
            notFoundContent={t('dialogue.transfer.noAgent')}
            options={(form.data?.agentList ?? []).map((a) => ({
              value: a.id,
              label: `${userDisplayName(a)} (${a.username})${a.maxusers ? ` ${a.users ?? 0}/${a.maxusers}` : ''}`,
            }))}
          />
        </Form.Item>
        <Form.Item label={t('dialogue.transfer.memo')}>
          <Input.TextArea
            data-testid="transfer-memo"
            maxLength={500}
            autoSize={{ minRows: 2, maxRows: 4 }}
            value={memo}
            onChange={(e) => setMemo(e.target.value)}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
