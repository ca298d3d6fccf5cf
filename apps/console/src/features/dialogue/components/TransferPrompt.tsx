import { useEffect, useState } from 'react';
import { Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TRANSFER_BUTTONS } from '@kefu/protocol';
import { talkApi } from '../api';
import { useDialogue } from '../store';
import { useNow } from './useNow';
import { useSession } from '../../../app/session';
import { transferPromptMs } from '../../sessionConfig/api';

/**
 * "Accept this transferred chat?" (spec section 2): buttons 'Agree' and 'Refuse'; closes by itself
 * after the request's timeout (session config transtiptimeout, else 5 s).
 */
export function TransferPrompt() {
  const { t } = useTranslation();
  const prompt = useDialogue((s) => s.prompts[0]);
  const drop = useDialogue((s) => s.dropPrompt);
  const dispatch = useDialogue((s) => s.dispatch);
  const [busy, setBusy] = useState(false);
  const [shownAt, setShownAt] = useState(0);
  const now = useNow(250);
  const cfg = useSession((s) => s.sessionConfig);
  const timeout = transferPromptMs(prompt?.timeout, cfg);

  useEffect(() => {
    if (!prompt) return;
    setShownAt(Date.now());
    const id = setTimeout(() => drop(prompt.id), timeout);
    return () => clearTimeout(id);
  }, [prompt, timeout, drop]);

  if (!prompt) return null;
  const left = Math.max(0, Math.ceil((timeout - (now - (shownAt || now))) / 1000));
  const answer = async (agree: boolean) => {
    setBusy(true);
    try {
      if (agree) {
        const entry = await talkApi.transferAccept(prompt.agentuserid);
        dispatch({ type: 'new', entry });
        dispatch({ type: 'select', id: entry.id });
      } else {
        await talkApi.transferRefuse(prompt.agentuserid);
      }
    } catch {
      // toasted by the request layer (e.g. the request already timed out)
    } finally {
      setBusy(false);
      drop(prompt.id);
    }
  };

  return (
    <Modal
      open
      closable={false}
      maskClosable={false}
      title={t('dialogue.transfer.promptTitle')}
      footer={[
        <Button key="refuse" data-testid="transfer-refuse" disabled={busy} onClick={() => void answer(false)}>
          {TRANSFER_BUTTONS.refuse}
        </Button>,
        <Button
          key="agree"
          type="primary"
          data-testid="transfer-agree"
          loading={busy}
          onClick={() => void answer(true)}
        >
          {TRANSFER_BUTTONS.agree}
        </Button>,
      ]}
    >
      <div data-testid="transfer-prompt">
        <p>{t('dialogue.transfer.promptText', { from: prompt.from.uname, name: prompt.username })}</p>
        {prompt.memo && (
          <Typography.Paragraph type="secondary">
            {t('dialogue.transfer.memo')}: {prompt.memo}
          </Typography.Paragraph>
        )}
        <Typography.Text type="secondary">{t('dialogue.transfer.closesIn', { s: left })}</Typography.Text>
      </div>
    </Modal>
  );
}
