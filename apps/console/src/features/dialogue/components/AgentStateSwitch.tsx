import { useSaving } from '../../../lib/saving';
import { Badge, Dropdown, theme } from 'antd';
import type { BadgeProps } from 'antd';
import { DisconnectOutlined, DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { StoredAgentState } from '@kefu/protocol';
import { useDialogue } from '../store';
import { useMayChat } from './AgentRuntimeHost';
import { SELECTABLE_STATES } from '../model/agentState';
import { askNotificationPermission } from '../notifications';
import { TransferPrompt } from './TransferPrompt';

const BADGE: Record<StoredAgentState, BadgeProps['status']> = {
  ready: 'success',
  notready: 'default',
  busy: 'warning',
};

/** The header pill's colours per state (from the theme tokens): the state must be seen at a glance. */
function pillColours(state: StoredAgentState, token: ReturnType<typeof theme.useToken>['token']) {
  if (state === 'ready')
    return { bg: token.colorSuccessBg, border: token.colorSuccess, fg: token.colorSuccessText };
  if (state === 'busy')
    return { bg: token.colorWarningBg, border: token.colorWarning, fg: token.colorWarningText };
  return { bg: token.colorFillSecondary, border: token.colorBorder, fg: token.colorTextSecondary };
}

/**
 * The agent work state in the shell's top bar (spec section 4): ready / busy / notready, each set by
 * its own call, shown to users who may chat (A01). The realtime session itself is held by
 * AgentRuntimeHost in the shell.
 */
export function AgentStateSwitch() {
  const { t } = useTranslation();
  const state = useDialogue((s) => s.agentState);
  const connected = useDialogue((s) => s.connected);
  const setAgentState = useDialogue((s) => s.setAgentState);
  const { saving: busy, run } = useSaving();
  const mayChat = useMayChat();
  const { token } = theme.useToken();
  const pill = pillColours(state, token);

  if (!mayChat) return null;
  const choose = async (s: StoredAgentState) => {
    askNotificationPermission();
    await run(() => setAgentState(s));
  };

  return (
    <>
      <TransferPrompt />
      <Dropdown
        disabled={busy}
        trigger={['click']}
        menu={{
          selectable: true,
          selectedKeys: [state],
          items: SELECTABLE_STATES.map((s) => ({
            key: s,
            label: <Badge status={BADGE[s]} text={t(`state.${s}`)} data-testid={`agent-state-${s}`} />,
          })),
          onClick: ({ key }) => void choose(key as StoredAgentState),
        }}
      >
        <span
          data-testid="agent-state"
          data-state={state}
          role="button"
          tabIndex={0}
          aria-label={t('shell.agentState')}
          // What the state means across tabs and reloads (a tooltip would cover the menu).
          title={t('shell.agentStateShared')}
          style={{
            cursor: 'pointer',
            whiteSpace: 'nowrap',
            display: 'inline-flex',
            alignItems: 'center',
            gap: 6,
            padding: '3px 12px',
            borderRadius: 16,
            border: `1px solid ${pill.border}`,
            background: pill.bg,
            color: pill.fg,
            fontWeight: 600,
            lineHeight: '22px',
          }}
        >
          {connected === false && (
            <DisconnectOutlined style={{ color: token.colorError }} data-testid="socket-offline" />
          )}
          <Badge status={BADGE[state]} />
          <span data-testid="agent-state-text">{t(`state.${state}`)}</span>
          <DownOutlined style={{ fontSize: 10 }} />
        </span>
      </Dropdown>
    </>
  );
}
