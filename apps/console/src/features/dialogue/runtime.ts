import type { AgentUserDto } from '@kefu/protocol';
import { connectAgentSocket, type AgentConnection } from '../../lib/socket';
import { getToken } from '../../lib/storage';
import { notify } from '../../lib/notify';
import { i18n } from '../../lib/i18n';
import { queryClient } from '../../app/ShellProviders';
import { useSession } from '../../app/session';
import { transferPromptMs } from '../sessionConfig/api';
import type { SessionUser } from '../auth/api';
import { agentApi } from './api';
import { useDialogue } from './store';
import { isStoredState, mapWorkStatus } from './model/agentState';
import { highestSeq } from './model/messages';
import { desktopNotify, flashTitle, playSound, type SoundPrefs } from './notifications';
import { summaryOf } from './summary';

let current: { userid: string; conn: AgentConnection } | null = null;

const isHidden = () => typeof document !== 'undefined' && document.hidden;

/**
 * Starts the agent's realtime session once per logged-in user: the socket, its events bound to the
 * dialogue store, sounds and notifications. Lives with the shell, so new chats arrive on any page.
 */
export function startAgentRuntime(user: SessionUser & SoundPrefs): () => void {
  if (current?.userid === user.id) return () => undefined;
  current?.conn.stop();
  const store = useDialogue;
  const me = { id: user.id, orgi: user.orgi ?? '', name: user.uname || user.username };
  if (isStoredState(user.on_state)) store.getState().showState(user.on_state);

  const conn = connectAgentSocket({
    token: getToken(),
    orgi: me.orgi,
    userid: me.id,
    ping: () => agentApi.ping(),
    lastSeqs: () => {
      const out: Record<string, number> = {};
      for (const [sid, list] of Object.entries(store.getState().messages)) {
        const seq = highestSeq(list);
        if (seq > 0) out[sid] = seq;
      }
      return out;
    },
    onConnection: (c) => {
      const was = store.getState().connected;
      store.getState().setConnected(c);
      if (c && was === false) {
        // Back after a drop: the server state and the list may have moved on meanwhile.
        void agentApi.status().then(
          (r) => store.getState().showState(r.status),
          () => undefined,
        );
        void store
          .getState()
          .loadChats()
          .catch(() => undefined);
      }
    },
    onLost: () => store.getState().showState('notready'),
  });
  store.getState().attach(me, conn.socket);
  const s = conn.socket;
  const prefs: SoundPrefs = { warningtone: user.warningtone, messagetone: user.messagetone };

  s.on('workstatus', (p) => {
    const next = mapWorkStatus(p.status, store.getState().agentState);
    if (next) store.getState().showState(next);
  });
  s.on('new', (entry: AgentUserDto) => {
    store.getState().dispatch({ type: 'new', entry });
    playSound('new', prefs);
    const text = i18n.t('dialogue.notice.newChat', { name: entry.username });
    if (isHidden()) {
      desktopNotify(text);
      flashTitle(i18n.t('dialogue.notice.flash'));
    }
  });
  s.on('end', (entry) => {
    store.getState().dispatch({ type: 'end', entry });
    void queryClient.invalidateQueries({ queryKey: ['dialogue', 'ended'] });
  });
  s.on('over', (p) =>
    store.getState().dispatch({ type: 'over', agentuserid: p.agentuserid, agentserviceid: p.agentserviceid }),
  );
  s.on('collaboration_new', (entry) =>
    store.getState().dispatch({ type: 'collaboration_new', entry, me: user.id }),
  );
  s.on('collaboration_leave', (p) =>
    store.getState().dispatch({
      type: 'collaboration_leave',
      agentuserid: p.agentuserid,
      agentserviceid: p.agentserviceid,
    }),
  );
  s.on('collaboration_over', (p) =>
    store.getState().dispatch({
      type: 'collaboration_over',
      agentuserid: p.agentuserid,
      agentserviceid: p.agentserviceid,
    }),
  );
  s.on('message', (m) => {
    store.getState().receive(m);
    if (m.calltype !== 'in') return;
    playSound('message', prefs);
    if (isHidden()) {
      desktopNotify(`${m.username}: ${summaryOf(m)}`);
      flashTitle(i18n.t('dialogue.notice.flash'));
    }
  });
  s.on('read', (p) => store.getState().read(p.agentserviceid, p.seq));
  s.on('notice', (n) => {
    if (!n.agentserviceid) return;
    if (n.type === 'writing') store.getState().setTyping(n.agentserviceid, n.message || '…');
    else if (n.type === 'withdraw' && n.id) store.getState().withdrawn(n.agentserviceid, n.id);
    else if (n.type === 'agent_timeout' && n.message) notify.error(n.message);
  });
  s.on('trans', (p) =>
    store.getState().pushPrompt({
      ...p,
      timeout: transferPromptMs(p.timeout, useSession.getState().sessionConfig),
    }),
  );
  s.on('exchange', (r) => {
    // A prompt shown here (this agent was the target) just goes away; the asker gets the outcome.
    const wasPrompt = store.getState().prompts.some((x) => x.id === r.id);
    store.getState().dropPrompt(r.id);
    if (wasPrompt) return;
    const key = `dialogue.transfer.result.${r.result}`;
    if (r.result === 'accepted') notify.success(i18n.t(key));
    else notify.error(i18n.t(key));
  });

  void store
    .getState()
    .loadChats()
    .catch(() => undefined);
  current = { userid: user.id, conn };
  return () => {
    if (current?.conn !== conn) return;
    conn.stop();
    current = null;
    store.getState().reset();
  };
}
