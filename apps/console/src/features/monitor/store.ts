import { create } from 'zustand';
import { io } from 'socket.io-client';
import {
  AGENT_NAMESPACE,
  DEFAULT_MONITOR_TAB,
  MONITOR_TABS,
  SOCKET_RECONNECTION,
  type MessageDto,
  type MonitorAlertDto,
  type MonitorChatDto,
  type MonitorService,
  type MonitorTab,
} from '@kefu/protocol';
import { storage, getToken } from '../../lib/storage';
import { registerStopper } from '../../lib/timers';
import { isCancelled } from '../../lib/request';
import { randomUuid, type AgentSocket } from '../../lib/socket';
import { mergeMessages, randomId, type ChatMessage } from '../dialogue/model/messages';
import { monitorApi } from './api';
import { applyUpdate, fromDesktop, type MonitorView } from './model';

/** The open transcript of one conversation. */
export interface Transcript {
  chat: MonitorChatDto;
  lines: ChatMessage[];
  loading: boolean;
  /** Joined as collaborator (`collaboration`): its lines arrive live on this socket. */
  joined: boolean;
}

interface MonitorState {
  view: MonitorView | null;
  connected: boolean;
  tab: MonitorTab;
  service: MonitorService | undefined;
  alerts: MonitorAlertDto[];
  transcript: Transcript | null;
  start: (user: { id: string; orgi?: string }) => () => void;
  reload: () => Promise<void>;
  setTab: (t: MonitorTab) => void;
  setService: (s: MonitorService | undefined) => void;
  open: (chat: MonitorChatDto) => void;
  close: () => void;
  join: () => Promise<void>;
  say: (kind: 'whisper' | 'barge', message: string) => Promise<void>;
}

const savedTab = (): MonitorTab => {
  const v = storage.get('chatMonitorActive');
  return (MONITOR_TABS as readonly string[]).includes(v ?? '') ? (v as MonitorTab) : DEFAULT_MONITOR_TAB;
};

const ALERTS_KEPT = 50;

let socket: AgentSocket | null = null;

/**
 * The monitor screen's state: a socket of its own on /im/agent that watches the live feed (`monitor`),
 * the desktop snapshot with every `monitor_update` applied, alerts, and one open transcript. The socket
 * lives while the screen is mounted (and stops with logout); a reconnect watches again and reloads.
 */
export const useMonitor = create<MonitorState>((set, get) => {
  const patchLines = (sid: string, incoming: readonly MessageDto[]) => {
    const tr = get().transcript;
    if (!tr || tr.chat.agentserviceid !== sid || incoming.length === 0) return;
    set({ transcript: { ...tr, lines: mergeMessages(tr.lines, incoming) } });
  };
  /** The newest lines of the open transcript (after the last one held). */
  const refreshLines = async () => {
    const tr = get().transcript;
    if (!tr) return;
    const sid = tr.chat.agentserviceid;
    const last = tr.lines.reduce((n, m) => (m.seq > n ? m.seq : n), 0);
    try {
      const page = await monitorApi.messages(sid, last ? { after: last } : {});
      patchLines(sid, page.list);
    } catch (e) {
      if (!isCancelled(e)) throw e;
    }
  };

  return {
    view: null,
    connected: false,
    tab: savedTab(),
    service: undefined,
    alerts: [],
    transcript: null,

    start: (user) => {
      const s: AgentSocket = io(AGENT_NAMESPACE, {
        transports: ['websocket'],
        query: {
          orgi: user.orgi ?? '',
          userid: user.id,
          uuid: randomUuid(),
          session: getToken(),
          admin: 'true',
        },
        reconnection: true,
        reconnectionDelay: SOCKET_RECONNECTION.reconnectionDelay,
        reconnectionDelayMax: SOCKET_RECONNECTION.reconnectionDelayMax,
        randomizationFactor: SOCKET_RECONNECTION.randomizationFactor,
        timeout: SOCKET_RECONNECTION.timeout,
      });
      socket = s;
      s.on('connect', () => {
        set({ connected: true });
        // Watch first, then read the snapshot: nothing changes unseen between the two.
        s.emit('monitor', { watch: true }, () => {
          void get()
            .reload()
            .catch(() => undefined);
        });
        const tr = get().transcript;
        if (tr?.joined) s.emit('collaboration', { id: tr.chat.id });
      });
      s.on('disconnect', () => set({ connected: false }));
      s.on('monitor_update', (u) => {
        const v = get().view;
        if (v) set({ view: applyUpdate(v, u) });
        const tr = get().transcript;
        if (!tr) return;
        const sid = tr.chat.agentserviceid;
        const chat = u.chats.find((c) => c.agentserviceid === sid);
        if (chat) set({ transcript: { ...tr, chat } });
        else if (u.removed.includes(sid)) set({ transcript: { ...tr, chat: { ...tr.chat, status: 'end' } } });
        if (!tr.joined && u.messages.some((m) => m.agentserviceid === sid))
          void refreshLines().catch(() => undefined);
      });
      s.on('monitor_alert', (a) => set({ alerts: [a, ...get().alerts].slice(0, ALERTS_KEPT) }));
      s.on('message', (m) => patchLines(m.agentserviceid, [m]));
      const stop = () => {
        s.removeAllListeners();
        s.disconnect();
        if (socket === s) socket = null;
        set({ connected: false, transcript: null });
      };
      const unregister = registerStopper(stop);
      return () => {
        unregister();
        stop();
      };
    },

    reload: async () => {
      const d = await monitorApi.desktop(get().tab, get().service);
      set({ view: fromDesktop(d) });
    },

    setTab: (tab) => {
      storage.set('chatMonitorActive', tab);
      set({ tab });
    },
    setService: (service) => set({ service }),

    open: (chat) => {
      set({ transcript: { chat, lines: [], loading: true, joined: false } });
      const sid = chat.agentserviceid;
      void Promise.all([monitorApi.messages(sid), monitorApi.whispers(sid).catch(() => [])])
        .then(([page, whispers]) => {
          const tr = get().transcript;
          if (!tr || tr.chat.agentserviceid !== sid) return;
          set({
            transcript: {
              ...tr,
              loading: false,
              lines: mergeMessages(tr.lines, [...page.list, ...whispers]),
            },
          });
        })
        .catch(() => {
          const tr = get().transcript;
          if (tr && tr.chat.agentserviceid === sid) set({ transcript: { ...tr, loading: false } });
        });
    },
    close: () => set({ transcript: null }),

    join: async () => {
      const tr = get().transcript;
      if (!tr || !socket) return;
      const res = await socket.timeout(10_000).emitWithAck('collaboration', { id: tr.chat.id });
      if (!res.success) throw new Error(res.msg);
      const now = get().transcript;
      if (now && now.chat.agentserviceid === tr.chat.agentserviceid)
        set({ transcript: { ...now, joined: true } });
    },

    say: async (kind, message) => {
      const tr = get().transcript;
      if (!tr) return;
      const body = { agentserviceid: tr.chat.agentserviceid, clientId: randomId(32), message };
      const line = kind === 'whisper' ? await monitorApi.whisper(body) : await monitorApi.barge(body);
      patchLines(tr.chat.agentserviceid, [line]);
    },
  };
});
