import { useSaving } from '../../../lib/saving';
import { Badge, Dropdown, Tooltip } from 'antd';
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
          style={{ cursor: 'pointer', whiteSpace: 'nowrap' }}
        >
          {connected === false && (
            <Tooltip title={t('dialogue.disconnected')}>
              <DisconnectOutlined style={{ color: '#ff4d4f', marginRight: 6 }} data-testid="socket-offline" />
            </Tooltip>
          )}
          <Badge status={BADGE[state]} text={t(`state.${state}`)} />
          <DownOutlined style={{ fontSize: 10, marginLeft: 4, color: '#8c8c8c' }} />
        </span>
      </Dropdown>
    </>
  );
}
