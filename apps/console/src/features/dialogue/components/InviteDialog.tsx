import { useState } from 'react';
import { Form, Modal, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { useSession } from '../../../app/session';
import { talkApi } from '../api';
import type { ChatEntry } from '../model/chatList';
import { userDisplayName } from '@kefu/protocol';

interface Props {
  chat: ChatEntry | null;
  onClose: () => void;
}

/** Invite a colleague into the chat as a collaborator (POST /api/talk/invite); they get collaboration_new. */
export function InviteDialog({ chat, onClose }: Props) {
  const { t } = useTranslation();
  const me = useSession((s) => s.info?.user.id);
  const [userid, setUserid] = useState<string | undefined>();
  const { saving, run } = useSaving();
  const colleagues = useQuery({
    queryKey: ['dialogue', 'colleagues'],
    queryFn: ({ signal }) => talkApi.colleagues(signal),
    enabled: !!chat,
  });

  const close = () => {
    setUserid(undefined);
    onClose();
  };
  const submit = async () => {
    if (!chat || !userid) return;
    await run(async () => {
      await talkApi.invite(chat.id, userid);
      notify.success(t('dialogue.invite.sent'));
      close();
    });
  };

  return (
    <Modal
      open={!!chat}
      title={t('dialogue.invite.title', { name: chat?.username ?? '' })}
      onCancel={close}
      onOk={() => void submit()}
      okText={t('dialogue.invite.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ disabled: !userid, 'data-testid': 'invite-submit' }}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('dialogue.invite.colleague')}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            data-testid="invite-colleague"
            loading={colleagues.isFetching}
            value={userid}
            onChange={(v?: string) => setUserid(v)}
            options={(colleagues.data ?? [])
              .filter((c) => c.id !== me)
              .map((c) => ({ value: c.id, label: `${userDisplayName(c)} (${c.username})` }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
