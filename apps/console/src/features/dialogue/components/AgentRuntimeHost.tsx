import { useEffect } from 'react';
import { Badge } from 'antd';
import { hasPermission } from '@kefu/protocol';
import { useSession } from '../../../app/session';
import { useDialogue } from '../store';
import { startAgentRuntime } from '../runtime';
import { unreadTotal } from '../model/chatList';

/** The logged-in user may chat (A01; usertype '0' holds every permission). */
export function useMayChat(): boolean {
  return useSession((s) => !!s.info && hasPermission(s.info.user.usertype, s.info.auth ?? {}, 'A01'));
}

/**
 * Rendered once by the shell: holds the agent's realtime session (socket, heartbeat, sounds,
 * notifications) for as long as the user is logged in, whichever console page is open. Keyed by the
 * user id, so a refreshed session object does not reconnect; logout stops it via stopAllTimers().
 */
export function AgentRuntimeHost() {
  const userid = useSession((s) => s.info?.user.id);
  const mayChat = useMayChat();

  useEffect(() => {
    const info = useSession.getState().info;
    if (!userid || !mayChat || !info) return;
    return startAgentRuntime(info.user);
  }, [userid, mayChat]);

  return null;
}

/** Unread messages plus chats that came in while the workspace was not open (the menu badge). */
export function useDialogueBadge(): number {
  return useDialogue((s) => unreadTotal(s.chats) + s.newChats);
}

/** The count next to the 在线对话 menu entry; nothing when there is nothing new. */
export function DialogueMenuBadge() {
  const count = useDialogueBadge();
  if (!count) return null;
  return (
    <Badge
      count={count}
      size="small"
      data-testid="menu-dialogue-badge"
      style={{ marginInlineStart: 8 }}
      title={String(count)}
    />
  );
}
