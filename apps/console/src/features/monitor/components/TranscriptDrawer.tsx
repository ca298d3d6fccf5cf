import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Drawer, Empty, Input, Segmented, Space, Spin, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useConfirmAction } from '../../../lib/confirm';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { MessageItem } from '../../dialogue/components/MessageItem';
import { mediaUrl } from '../../dialogue/api';
import { monitorApi } from '../api';
import { useMonitor } from '../store';
import { ChatStatus } from './ChatTable';
import { AuditList } from './AuditList';
import { TransferModal } from './TransferModal';

/** What a supervisor types into the chat: a whisper (agents only) or a barge-in (to the visitor). */
function SayBox() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'whisper' | 'barge'>('whisper');
  const [text, setText] = useState('');
  const { saving, run } = useSaving();
  const send = () => {
    const message = text.trim();
    if (!message) return;
    void run(async () => {
      await useMonitor.getState().say(kind, message);
      setText('');
    });
  };
  return (
    <div data-testid="monitor-say" style={{ borderTop: '1px solid rgba(0,0,0,0.06)', paddingTop: 12 }}>
      <Space style={{ marginBottom: 8 }}>
        <Segmented<'whisper' | 'barge'>
          data-testid="monitor-say-kind"
          value={kind}
          onChange={setKind}
          options={[
            { value: 'whisper', label: t('monitor.say.whisper') },
            { value: 'barge', label: t('monitor.say.barge') },
          ]}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {kind === 'whisper' ? t('monitor.say.whisperHint') : t('monitor.say.bargeHint')}
        </Typography.Text>
      </Space>
      <Space.Compact style={{ width: '100%' }}>
        <Input.TextArea
          data-testid="monitor-say-input"
          value={text}
          autoSize={{ minRows: 2, maxRows: 4 }}
          onChange={(e) => setText(e.target.value)}
          onPressEnter={(e) => {
            if (!e.shiftKey) {
              e.preventDefault();
              send();
            }
          }}
        />
        <Button
          type="primary"
          data-testid="monitor-say-send"
          loading={saving}
          onClick={send}
          style={{ height: 'auto' }}
        >
          {t('monitor.say.send')}
        </Button>
      </Space.Compact>
    </div>
  );
}

function Lines() {
  const { t } = useTranslation();
  const tr = useMonitor((s) => s.transcript);
  const end = useRef<HTMLDivElement>(null);
  const count = tr?.lines.length ?? 0;
  useEffect(() => {
    // Braces: newer Chromium returns a promise from scrollIntoView, which must not become the cleanup.
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);
  if (!tr) return null;
  if (tr.loading) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  if (count === 0) return <Empty description={t('monitor.transcript.empty')} />;
  return (
    <div data-testid="monitor-transcript-lines">
      {tr.lines.map((m) => (
        <MessageItem
          key={m.id}
          m={m}
          mayWithdraw={false}
          onImage={(id) => window.open(mediaUrl('image', id), '_blank', 'noopener')}
          onWithdraw={() => undefined}
          onRetry={() => undefined}
        />
      ))}
      <div ref={end} />
    </div>
  );
}

/** The actions on the open chat, each behind the spec's confirm where it changes who serves it. */
function Actions() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const tr = useMonitor((s) => s.transcript);
  const [transfer, setTransfer] = useState(false);
  if (!tr || tr.chat.status === 'end') return null;
  const c = tr.chat;
  const name = c.agentservice.username || c.username;
  const ref = { agentserviceid: c.agentserviceid };
  return (
    <Space wrap data-testid="monitor-actions">
      {!tr.joined && (
        <Button
          data-testid="monitor-join"
          onClick={() =>
            void useMonitor
              .getState()
              .join()
              .then(
                () => notify.success(t('monitor.action.joined')),
                (e: Error) => notify.error(e.message),
              )
          }
        >
          {t('monitor.action.join')}
        </Button>
      )}
      <Button
        data-testid="monitor-takeover"
        onClick={() =>
          confirm(t('monitor.action.takeoverConfirm', { name }), async () => {
            await monitorApi.takeover(ref);
            return t('monitor.action.takenOver');
          })
        }
      >
        {t('monitor.action.takeover')}
      </Button>
      <Button data-testid="monitor-transfer" onClick={() => setTransfer(true)}>
        {t('monitor.action.transfer')}
      </Button>
      {c.ai === 1 ? (
        <Button
          data-testid="monitor-to-human"
          onClick={() =>
            confirm(t('monitor.action.toHumanConfirm', { name }), () =>
              monitorApi.aiChange({ ...ref, ai: false }),
            )
          }
        >
          {t('monitor.action.toHuman')}
        </Button>
      ) : (
        <Button
          data-testid="monitor-to-ai"
          onClick={() =>
            confirm(t('monitor.action.toAiConfirm', { name }), () =>
              monitorApi.aiChange({ ...ref, ai: true }),
            )
          }
        >
          {t('monitor.action.toAi')}
        </Button>
      )}
      <Button
        danger
        data-testid="monitor-end"
        onClick={() => confirm(t('monitor.action.endConfirm', { name }), () => monitorApi.end(ref))}
      >
        {t('monitor.action.end')}
      </Button>
      <TransferModal open={transfer} chat={c} onClose={() => setTransfer(false)} />
    </Space>
  );
}

/** A chat of the scope: its read-only live transcript, the supervisor's lines and actions, its audit trail. */
export function TranscriptDrawer() {
  const { t } = useTranslation();
  const tr = useMonitor((s) => s.transcript);
  const c = tr?.chat;
  return (
    <Drawer
      open={!!tr}
      width={620}
      onClose={() => useMonitor.getState().close()}
      destroyOnHidden
      data-testid="monitor-transcript"
      title={
        c ? (
          <Space>
            <span>{c.agentservice.username || c.username}</span>
            <ChatStatus c={c} />
            <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
              {[c.organname, c.agentname].filter(Boolean).join(' · ')}
            </Typography.Text>
          </Space>
        ) : (
          t('monitor.transcript.title')
        )
      }
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12 } }}
    >
      {c && (
        <Tabs
          style={{ flex: 1, minHeight: 0 }}
          items={[
            {
              key: 'lines',
              label: t('monitor.transcript.title'),
              children: (
                <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
                  <Alert type="info" showIcon message={t('monitor.transcript.readonly')} />
                  {c.status === 'end' && <Alert type="warning" message={t('monitor.transcript.ended')} />}
                  <Actions />
                  <div style={{ maxHeight: 'calc(100vh - 420px)', minHeight: 200, overflowY: 'auto' }}>
                    <Lines />
                  </div>
                  {c.status === 'inservice' && <SayBox />}
                </div>
              ),
            },
            {
              key: 'audit',
              label: t('monitor.audit'),
              children: <AuditList agentserviceid={c.agentserviceid} />,
            },
          ]}
        />
      )}
    </Drawer>
  );
}
