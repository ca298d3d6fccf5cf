import { useEffect, useState } from 'react';
import { Modal, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ContactDto } from '@kefu/protocol';
import { contactsApi } from '../api';
import { useSaving } from '../../../lib/saving';
import { notify } from '../../../lib/notify';

/** Merges two selected contacts: the user picks the one to keep; the other is folded into it. */
export function MergeDialog(props: {
  pair: [ContactDto, ContactDto] | null;
  onClose: () => void;
  onMerged: () => void;
}) {
  const { t } = useTranslation();
  const { saving, run } = useSaving();
  const [keep, setKeep] = useState<string>('');
  const pair = props.pair;
  useEffect(() => setKeep(pair?.[0].id ?? ''), [pair]);
  const describe = (c: ContactDto) => [c.name, c.phone, c.email, c.company].filter(Boolean).join(' · ');
  return (
    <Modal
      open={!!pair}
      title={t('card.mergeTitle')}
      onCancel={props.onClose}
      confirmLoading={saving}
      okText={t('card.merge')}
      cancelText={t('common.cancel')}
      okButtonProps={{ 'data-testid': 'contact-merge-ok' }}
      onOk={() =>
        pair &&
        void run(async () => {
          const source = pair.find((c) => c.id !== keep)!;
          await contactsApi.merge(keep, source.id);
          notify.success(t('common.done'));
          props.onMerged();
        })
      }
    >
      <Typography.Paragraph type="secondary">{t('card.mergeHint')}</Typography.Paragraph>
      <Typography.Text strong>{t('card.mergeKeep')}</Typography.Text>
      <Radio.Group
        value={keep}
        onChange={(e) => setKeep(String(e.target.value))}
        style={{ display: 'block', marginTop: 8 }}
      >
        <Space direction="vertical">
          {pair?.map((c) => (
            <Radio key={c.id} value={c.id} data-testid={`contact-merge-keep-${c.name}`}>
              {describe(c)}
            </Radio>
          ))}
        </Space>
      </Radio.Group>
    </Modal>
  );
}
