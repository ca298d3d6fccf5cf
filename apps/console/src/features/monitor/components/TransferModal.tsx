import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MonitorChatDto } from '@kefu/protocol';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { monitorApi } from '../api';
import { useMonitor } from '../store';

interface Values {
  organ?: string;
  agentno?: string;
  memo?: string;
}

/** Move a chat to a ready agent with room, or to the best ready agent of a group. */
export function TransferModal(props: { open: boolean; chat: MonitorChatDto; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const view = useMonitor((s) => s.view);
  const organ = Form.useWatch('organ', form);
  const { saving, run } = useSaving();
  const agents = [...(view?.agents.values() ?? [])].filter(
    (a) =>
      a.userid !== props.chat.agentno &&
      a.status === 'ready' &&
      a.users < a.maxusers &&
      (!organ || a.organs.includes(organ)),
  );
  return (
    <Modal
      open={props.open}
      title={t('monitor.transfer.title')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'monitor-transfer-ok' } as Record<string, string>}
      onCancel={props.onClose}
      destroyOnHidden
      onOk={() =>
        void form.validateFields().then((v) =>
          run(async () => {
            await monitorApi.transfer({ agentserviceid: props.chat.agentserviceid, ...v });
            notify.success(t('common.done'));
            props.onClose();
          }),
        )
      }
    >
      <Form<Values> form={form} layout="vertical" data-testid="monitor-transfer-form">
        <Form.Item name="organ" label={t('monitor.transfer.group')}>
          <Select
            allowClear
            data-testid="monitor-transfer-group"
            options={(view?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))}
            onChange={() => form.setFieldValue('agentno', undefined)}
          />
        </Form.Item>
        <Form.Item
          name="agentno"
          label={t('monitor.transfer.agent')}
          extra={t('monitor.transfer.agentHint')}
          rules={[
            {
              validator: (_, v: string | undefined) =>
                v || form.getFieldValue('organ')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('error.required'))),
            },
          ]}
        >
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            data-testid="monitor-transfer-agent"
            options={agents.map((a) => ({ value: a.userid, label: `${a.uname} (${a.users}/${a.maxusers})` }))}
          />
        </Form.Item>
        <Form.Item name="memo" label={t('monitor.transfer.memo')}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
