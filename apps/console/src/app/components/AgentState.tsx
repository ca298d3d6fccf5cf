import { Badge, Tooltip } from 'antd';
import type { BadgeProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { AGENT_STATES, type AgentState as State } from '@kefu/protocol';
import { useSession } from '../session';

const BADGE: Record<State, BadgeProps['status']> = {
  ready: 'success',
  notready: 'default',
  busy: 'warning',
  leave: 'default',
  notbusy: 'success',
};

/** Read-only until the conversation engine brings ready/notready/busy calls and the socket. */
export function AgentState() {
  const { t } = useTranslation();
  const raw = useSession((s) => s.info?.user.on_state);
  const state: State = (AGENT_STATES as readonly string[]).includes(raw ?? '') ? (raw as State) : 'notready';
  return (
    <Tooltip title={t('shell.agentStateHint')}>
      <span data-testid="agent-state" aria-label={t('shell.agentState')}>
        <Badge status={BADGE[state]} text={t(`state.${state}`)} />
      </span>
    </Tooltip>
  );
}
