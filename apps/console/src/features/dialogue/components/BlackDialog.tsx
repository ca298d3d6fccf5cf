import { useState } from 'react';
import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { talkApi } from '../api';
import type { ChatEntry } from '../model/chatList';

const HOURS = [1, 24, 72, 168, 720, 0];

/** Blacklist the visitor of a chat (POST /api/talk/black): the chat ends, the visitor is refused until expiry. */
export function BlackDialog({ chat, onClose }: { chat: ChatEntry | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [controltime, setControltime] = useState(24);
  const [description, setDescription] = useState('');
  const { saving, run } = useSaving();
  const submit = async () => {
    if (!chat) return;
    await run(async () => {
      await talkApi.black({ agentuserid: chat.id, controltime, description });
      notify.success(t('common.done'));
      setDescription('');
      onClose();
    });
  };
  return (
    <Modal
      open={!!chat}
      title={t('dialogue.black.title', { name: chat?.username ?? '' })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true, 'data-testid': 'black-submit' }}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('dialogue.black.duration')}>
          <Select
            value={controltime}
            onChange={setControltime}
            options={HOURS.map((h) => ({
              value: h,
              label: h === 0 ? t('dialogue.black.forever') : t('dialogue.black.hours', { n: h }),
            }))}
          />
        </Form.Item>
        <Form.Item label={t('dialogue.black.reason')}>
          <Input.TextArea
            maxLength={500}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
