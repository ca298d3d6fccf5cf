import { useEffect, useState } from 'react';
import { Checkbox, Input, Modal, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QUALITY_LIMITS } from '@kefu/protocol';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { qualityApi } from '../api';
import { emptyDraft, previewScore, type Draft } from '../model';
import { Scorecard } from './Scorecard';

/** The same item scores on several inspections scored with one card (save/batch/form, save/batch). */
export function BatchScoreModal(props: {
  ids: string[];
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const form = useQuery({
    queryKey: ['quality', 'batchForm', props.ids],
    queryFn: ({ signal }) => qualityApi.batchForm(props.ids, signal),
    enabled: props.open && props.ids.length > 0,
    retry: false,
  });
  const [draft, setDraft] = useState<Draft>({});
  const [comment, setComment] = useState('');
  const [send, setSend] = useState(false);
  const { saving, run } = useSaving();
  const card = form.data?.card;
  useEffect(() => {
    if (card) setDraft(emptyDraft(card, []));
  }, [card]);
  const save = () =>
    run(async () => {
      const r = await qualityApi.saveBatch({ ids: props.ids, items: Object.values(draft), comment, send });
      notify.success(t('qc.batch.saved', { n: r.saved }));
      props.onDone();
    });
  return (
    <Modal
      open={props.open}
      width={720}
      title={t('qc.batch.title', { n: props.ids.length })}
      onCancel={props.onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      okButtonProps={{ disabled: !card, ...{ 'data-testid': 'qc-batch-submit' } }}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      {form.isError ? (
        <Typography.Text type="danger">{t('qc.batch.mismatch')}</Typography.Text>
      ) : !card ? (
        <Spin />
      ) : (
        <div data-testid="qc-batch">
          <Typography.Paragraph>
            {card.name} v{card.version} · {t('qc.preview')}: {previewScore(card, draft).score}
          </Typography.Paragraph>
          <Scorecard
            card={card}
            draft={draft}
            onChange={setDraft}
            active={null}
            onActive={() => undefined}
            msgLabel={(m) => m}
            noCite
          />
          <Input.TextArea
            rows={2}
            maxLength={QUALITY_LIMITS.comment}
            placeholder={t('qc.comment.overall')}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
          <Checkbox checked={send} onChange={(e) => setSend(e.target.checked)} style={{ marginTop: 8 }}>
            {t('qc.batch.send')}
          </Checkbox>
        </div>
      )}
    </Modal>
  );
}
