import { useEffect, useRef } from 'preact/hooks';
import type { Credential } from '../chat/api.js';
import type { ChatClient, ChatState } from '../chat/client.js';
import { t } from '../lib/i18n.js';
import { isReadByAgent } from '../lib/timeline.js';
import { Bubble, PendingBubble } from './Bubble.js';

export function MessageList({
  state,
  client,
  credential,
}: {
  state: ChatState;
  client: ChatClient;
  credential: Credential;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const { entries, outbox } = state.timeline;
  useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [entries.length, outbox.length, state.typing]);
  const now = Date.now();
  return (
    <div class="kf-list" ref={ref} role="log" aria-live="polite" data-testid="messages">
      {entries.map((e) =>
        e.kind === 'notice' ? (
          <div class="kf-notice" key={e.key} data-testid="notice">
            {e.text}
          </div>
        ) : (
          <Bubble
            key={e.key}
            m={e.m}
            credential={credential}
            readByAgent={isReadByAgent(state.timeline, e.m)}
            now={now}
            open={state.status !== 'end' && e.m.agentserviceid === state.timeline.current}
            onWithdraw={(id) => client.withdraw(id)}
            onAsk={
              state.robot && e.m.agentserviceid === state.timeline.current
                ? (q) => client.send('text', q)
                : undefined
            }
          />
        ),
      )}
      {outbox.map((o) => (
        <PendingBubble
          key={o.clientId}
          o={o}
          credential={credential}
          onRetry={(id) => client.retrySend(id)}
        />
      ))}
      {state.typing && <div class="kf-typing">{t('agentTyping')}</div>}
    </div>
  );
}
