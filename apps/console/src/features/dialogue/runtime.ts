import type { AgentUserDto } from '@kefu/protocol';
import { connectAgentSocket, type AgentConnection } from '../../lib/socket';
import { getToken } from '../../lib/storage';
import { registerStopper } from '../../lib/timers';
import { notify } from '../../lib/notify';
import { i18n } from '../../lib/i18n';
import { queryClient } from '../../app/ShellProviders';
import { useSession } from '../../app/session';
import { transferPromptMs } from '../sessionConfig/api';
import type { SessionUser } from '../auth/api';
import { agentApi } from './api';
import { useDialogue } from './store';
import { isStoredState, mapWorkStatus } from './model/agentState';
import { dialogueReplay, type DialogueReplay } from './replay';
import { desktopNotify, flashTitle, playSound, type SoundPrefs } from './notifications';
import { summaryOf } from './summary';
import { supervisionNotice } from '../monitor/notices';
import { userDisplayName } from '@kefu/protocol';

interface Running {
  userid: string;
  conn: AgentConnection;
  replay: DialogueReplay;
  /** Mounted holders (the shell; twice for a moment under StrictMode or a remount). */
  holders: number;
  /** A pending stop after the last holder let go, cancelled if one comes back. */
  stopTimer?: ReturnType<typeof setTimeout>;
  unregister: () => void;
}

let current: Running | null = null;

const isHidden = () => typeof document !== 'undefined' && document.hidden;

/** Stops the running session now (logout, expiry, another user) and empties the dialogue store. */
export function stopAgentRuntime(): void {
  const run = current;
  if (!run) return;
  current = null;
  clearTimeout(run.stopTimer);
  run.unregister();
  run.replay.stop();
  run.conn.stop();
  useDialogue.getState().reset();
}

/** The user whose realtime session is running, if any (for tests and diagnostics). */
export const runningAgentRuntime = (): string | null => current?.userid ?? null;

/** Hands back a release function: the session stops shortly after its last holder releases it. */
function hold(run: Running): () => void {
  run.holders++;
  clearTimeout(run.stopTimer);
  run.stopTimer = undefined;
  let released = false;
  return () => {
    if (released || current !== run) return;
    released = true;
    run.holders--;
    if (run.holders > 0) return;
    // A remount (StrictMode, the router rebuilt for new routes) takes it back before this fires,
    // so the socket is not dropped and the server does not mark the agent notready.
    run.stopTimer = setTimeout(() => {
      if (current === run && run.holders === 0) stopAgentRuntime();
    }, 0);
  };
}

/**
 * Starts the agent's realtime session once per logged-in user: the socket, its events bound to the
 * dialogue store, sounds and notifications. Held by the shell (AgentRuntimeHost), so new chats
 * arrive and the agent stays ready on every console page; the dialogue screen is only a view over
 * the store. Logout and session expiry stop it through stopAllTimers().
 */
export function startAgentRuntime(user: SessionUser & SoundPrefs): () => void {
  if (current?.userid === user.id) return hold(current);
  stopAgentRuntime();
  const store = useDialogue;
  const me = { id: user.id, orgi: user.orgi ?? '', name: userDisplayName(user) };
  if (isStoredState(user.on_state)) store.getState().showState(user.on_state);

  const replay = dialogueReplay(() => store.getState().socket);
  const conn = connectAgentSocket({
    token: getToken(),
    orgi: me.orgi,
    userid: me.id,
    ping: () => agentApi.ping(),
    lastSeqs: () => replay.lastSeqs(),
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
    // A dropped socket keeps the agent's state on the server for a grace period (a reload, a network
    // blip): the header keeps it too, marked disconnected, and re-reads it once back. A missed heartbeat
    // or a server 'noagent' does mean notready.
    onLost: (reason) => {
      if (reason !== 'disconnect' && reason !== 'connect_error') store.getState().showState('notready');
    },
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
    if (!store.getState().viewing) store.getState().noteNewChat();
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
  s.on('over', (p) => {
    store.getState().dispatch({ type: 'over', agentuserid: p.agentuserid, agentserviceid: p.agentserviceid });
    // The end line the visitor got joins the transcript.
    if (store.getState().systemLines[p.agentserviceid])
      void store.getState().loadSystemLines(p.agentserviceid);
  });
  s.on('presence', (p) => store.getState().dispatch({ type: 'presence', ...p }));
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
  // Another node's lines may have been lost while cross-node delivery was down: replay what is missing.
  s.on('resync', () => void replay.resync());
  s.on('notice', (n) => {
    const supervised = supervisionNotice(n);
    if (supervised) notify.warning(supervised);
    if (!n.agentserviceid) return;
    if (n.type === 'writing') store.getState().setTyping(n.agentserviceid, n.message || '…');
    else if (n.type === 'withdraw' && n.id) store.getState().withdrawn(n.agentserviceid, n.id);
    else if (n.type === 'agent_timeout' && n.message) notify.error(n.message);
    else if (n.type === 'sensitive') notify.warning(i18n.t('sw.alertNotice', { words: n.message }));
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
  const run: Running = { userid: user.id, conn, replay, holders: 0, unregister: () => undefined };
  current = run;
  // stopAllTimers() (logout, expiry) would stop the socket anyway; this also forgets the session.
  run.unregister = registerStopper(() => {
    if (current === run) stopAgentRuntime();
  });
  return hold(run);
}
