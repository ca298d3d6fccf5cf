import { create } from 'zustand';
import {
  DEFAULT_TALK_SORT,
  READ_REPORT_DEBOUNCE_MS,
  TALK_SORTS,
  type AgentUserDto,
  type MessageDto,
  type MsgType,
  type StoredAgentState,
  type SystemLineDto,
  type TalkSort,
  type TransferPromptDto,
} from '@kefu/protocol';
import { storage } from '../../lib/storage';
import { isCancelled } from '../../lib/request';
import { agentApi, talkApi } from './api';
import { chatListReducer, emptyChatList, type ChatAction, type ChatListState } from './model/chatList';
import {
  addPending,
  applyRead,
  applyWithdraw,
  failPending,
  lowestSeq,
  mergeMessages,
  randomId,
  type ChatMessage,
} from './model/messages';
import { ackWithin, type AgentSocket } from '../../lib/socket';
import { notify } from '../../lib/notify';
import { summaryOf } from './summary';
import { monitorApi } from '../monitor/api';

export interface Me {
  id: string;
  orgi: string;
  name: string;
}

/** A chat action; the store fills in the current sort. */
export type LooseAction = ChatAction extends infer A
  ? A extends unknown
    ? Omit<A, 'sort'> & { sort?: TalkSort }
    : never
  : never;

interface DialogueState {
  me: Me | null;
  socket: AgentSocket | null;
  /** null until the first connect. */
  connected: boolean | null;
  agentState: StoredAgentState;
  sort: TalkSort;
  chats: ChatListState;
  /** Messages, hasMore and "loaded once" per conversation id. */
  messages: Record<string, ChatMessage[]>;
  hasMore: Record<string, boolean>;
  loaded: Record<string, boolean>;
  /** The visitor's draft while typing, per conversation. */
  typing: Record<string, string>;
  /** The visitor's notices that are not messages (welcome, assignment, transfers, end), per conversation. */
  systemLines: Record<string, SystemLineDto[]>;
  prompts: TransferPromptDto[];
  /** The workspace is on screen: only then does selecting or receiving report the chat read. */
  viewing: boolean;
  /** New chats that arrived while the workspace was not on screen (the menu badge); cleared on view. */
  newChats: number;

  attach: (me: Me, socket: AgentSocket | null) => void;
  reset: () => void;
  dispatch: (a: LooseAction) => void;
  setSort: (s: TalkSort) => void;
  loadChats: () => Promise<void>;
  select: (id: string | null) => void;
  loadHistory: (sid: string, older?: boolean, ended?: boolean) => Promise<void>;
  receive: (m: MessageDto) => void;
  send: (
    chat: AgentUserDto,
    m: { msgtype: MsgType; message?: string; attachmentid?: string; filename?: string },
  ) => void;
  retry: (sid: string, clientId: string) => void;
  withdrawn: (sid: string, id: string) => void;
  read: (sid: string, seq: number) => void;
  setTyping: (sid: string, draft: string) => void;
  /** (Re)reads a conversation's system lines. */
  loadSystemLines: (sid: string) => Promise<void>;
  setAgentState: (s: StoredAgentState) => Promise<void>;
  showState: (s: StoredAgentState) => void;
  setConnected: (c: boolean) => void;
  pushPrompt: (p: TransferPromptDto) => void;
  dropPrompt: (id: string) => void;
  setViewing: (v: boolean) => void;
  noteNewChat: () => void;
  /** Reports the open chat read (debounced), e.g. when the page becomes visible again. */
  markRead: () => void;
}

const savedSort = (): TalkSort => {
  const v = storage.get('talksort');
  return (TALK_SORTS as readonly string[]).includes(v ?? '') ? (v as TalkSort) : DEFAULT_TALK_SORT;
};

/** No ack within this time: the message shows as failed and can be resent (same clientId). */
const SEND_ACK_TIMEOUT_MS = 15_000;

let readTimer: ReturnType<typeof setTimeout> | undefined;
const typingTimers = new Map<string, ReturnType<typeof setTimeout>>();

/** The agent workspace: chat list, messages, agent state, transfer prompts (one per session). */
export const useDialogue = create<DialogueState>((set, get) => {
  /** Spec: selecting a chat (or reading it while open) reports it read, debounced 500 ms. */
  const reportRead = (sid: string) => {
    if (!get().viewing || (typeof document !== 'undefined' && document.hidden)) return;
    clearTimeout(readTimer);
    readTimer = setTimeout(() => {
      void talkApi.read(sid, get().me?.orgi).catch(() => undefined);
    }, READ_REPORT_DEBOUNCE_MS);
  };
  const patchMessages = (sid: string, fn: (l: ChatMessage[]) => ChatMessage[]) =>
    set((s) => ({ messages: { ...s.messages, [sid]: fn(s.messages[sid] ?? []) } }));

  const emit = (chat: AgentUserDto, draft: ChatMessage) => {
    const { socket, me } = get();
    const sid = chat.agentserviceid;
    if (!socket || !socket.connected || !me) {
      patchMessages(sid, (l) => failPending(l, draft.clientId));
      return;
    }
    socket.emit(
      'message',
      {
        appid: '',
        userid: me.id,
        touser: chat.userid,
        orgi: me.orgi,
        username: me.name,
        nickname: me.name,
        message: draft.message,
        msgtype: draft.msgtype,
        attachmentid: draft.attachmentid,
        agentserviceid: sid,
        clientId: draft.clientId,
        type: 'message',
      },
      ackWithin<MessageDto | null>(SEND_ACK_TIMEOUT_MS, (res) => {
        if (!res || !res.success || !res.data) {
          patchMessages(sid, (l) => failPending(l, draft.clientId));
          if (res && !res.success) notify.error(res.msg);
          return;
        }
        const stored = res.data;
        patchMessages(sid, (l) => mergeMessages(l, [stored]));
        get().dispatch({ type: 'message', msg: stored, summary: summaryOf(stored) });
      }),
    );
  };

  return {
    me: null,
    socket: null,
    connected: null,
    agentState: 'notready',
    sort: savedSort(),
    chats: emptyChatList,
    messages: {},
    hasMore: {},
    loaded: {},
    typing: {},
    systemLines: {},
    prompts: [],
    viewing: false,
    newChats: 0,

    attach: (me, socket) => set({ me, socket }),
    reset: () =>
      set({
        me: null,
        socket: null,
        connected: null,
        agentState: 'notready',
        chats: emptyChatList,
        messages: {},
        hasMore: {},
        loaded: {},
        typing: {},
        systemLines: {},
        prompts: [],
        newChats: 0,
      }),

    dispatch: (a) => {
      const before = get().chats.selectedId;
      const chats = chatListReducer(get().chats, { ...a, sort: a.sort ?? get().sort } as ChatAction);
      set({ chats });
      const sel = chats.list.find((c) => c.id === chats.selectedId);
      if (sel && (chats.selectedId !== before || (a.type === 'message' && a.msg.calltype === 'in')))
        reportRead(sel.agentserviceid);
    },
    setSort: (sort) => {
      storage.set('talksort', sort);
      set({ sort });
      get().dispatch({ type: 'sort', sort });
    },
    loadChats: async () => {
      const r = await talkApi.agentUsers(get().sort);
      get().dispatch({ type: 'load', list: r.agentUserList });
    },
    select: (id) => get().dispatch({ type: 'select', id }),

    loadHistory: async (sid, older = false, ended = false) => {
      const before = older ? lowestSeq(get().messages[sid] ?? []) : undefined;
      if (older && !before) return;
      try {
        // A supervisor's whispers sit among the lines (seq 0, after the line they followed); read once.
        const [page, whispers] = await Promise.all([
          talkApi.messages({ agentserviceid: sid, before }, ended),
          older ? [] : monitorApi.whispers(sid).catch(() => []),
        ]);
        set((s) => ({
          messages: {
            ...s.messages,
            [sid]: mergeMessages(s.messages[sid] ?? [], [...page.list, ...whispers]),
          },
          hasMore: older || !s.loaded[sid] ? { ...s.hasMore, [sid]: page.hasMore } : s.hasMore,
          loaded: { ...s.loaded, [sid]: true },
        }));
      } catch (e) {
        if (!isCancelled(e)) throw e;
      }
    },

    receive: (m) => {
      if (m.type === 'writing') return;
      // A catch-up replay or a second delivery of a message already shown changes nothing.
      if ((get().messages[m.agentserviceid] ?? []).some((x) => x.id === m.id)) return;
      patchMessages(m.agentserviceid, (l) => mergeMessages(l, [m]));
      // A whisper is for the pane only: it is not the chat's last line, nor an answer to the visitor.
      if (m.whisper) return;
      if (m.calltype === 'in') get().setTyping(m.agentserviceid, '');
      get().dispatch({ type: 'message', msg: m, summary: summaryOf(m) });
    },

    send: (chat, m) => {
      const me = get().me;
      if (!me) return;
      const text = m.message ?? '';
      const draft: ChatMessage = {
        id: `pending:${randomId(12)}`,
        agentserviceid: chat.agentserviceid,
        usession: chat.userid,
        seq: 0,
        clientId: randomId(32),
        type: 'message',
        msgtype: m.msgtype,
        calltype: 'out',
        userid: me.id,
        username: me.name,
        touser: chat.userid,
        message: text,
        puremsg: text,
        translatemsg: '',
        attachmentid: m.attachmentid ?? null,
        filename: m.filename ?? null,
        filesize: null,
        datastatus: 0,
        withdrawn: false,
        readstatus: 0,
        tokenum: 0,
        collabora: chat.collabora,
        createtime: Date.now(),
      };
      patchMessages(chat.agentserviceid, (l) => addPending(l, draft));
      emit(chat, draft);
    },
    retry: (sid, clientId) => {
      const draft = (get().messages[sid] ?? []).find((x) => x.pending && x.clientId === clientId);
      const chat = get().chats.list.find((c) => c.agentserviceid === sid);
      if (!draft || !chat) return;
      // Same clientId: the server stores it at most once.
      patchMessages(sid, (l) => addPending(l, draft));
      emit(chat, draft);
    },
    loadSystemLines: async (sid) => {
      try {
        const lines = await talkApi.systemLines(sid);
        set((s) => ({ systemLines: { ...s.systemLines, [sid]: lines } }));
      } catch {
        // Not essential: the transcript is shown without them.
      }
    },
    withdrawn: (sid, id) => patchMessages(sid, (l) => applyWithdraw(l, id)),
    read: (sid, seq) => patchMessages(sid, (l) => applyRead(l, seq)),
    setTyping: (sid, draft) => {
      clearTimeout(typingTimers.get(sid));
      set((s) => ({ typing: { ...s.typing, [sid]: draft } }));
      if (draft)
        typingTimers.set(
          sid,
          setTimeout(() => set((s) => ({ typing: { ...s.typing, [sid]: '' } })), 5_000),
        );
    },

    setAgentState: async (st) => {
      const r = await agentApi.setState(st);
      set({ agentState: r.status });
    },
    showState: (agentState) => set({ agentState }),
    setConnected: (connected) => set({ connected }),
    pushPrompt: (p) => set((s) => ({ prompts: [...s.prompts.filter((x) => x.id !== p.id), p] })),
    dropPrompt: (id) => set((s) => ({ prompts: s.prompts.filter((x) => x.id !== id) })),
    setViewing: (viewing) => set(viewing ? { viewing, newChats: 0 } : { viewing }),
    noteNewChat: () => set({ newChats: get().newChats + 1 }),
    markRead: () => {
      const { chats } = get();
      const sel = chats.list.find((c) => c.id === chats.selectedId);
      if (!sel) return;
      if (sel.tokenum) get().dispatch({ type: 'select', id: sel.id });
      reportRead(sel.agentserviceid);
    },
  };
});

/** The selected chat entry, or undefined. */
export const useSelectedChat = () =>
  useDialogue((s) => s.chats.list.find((c) => c.id === s.chats.selectedId));
