import type { AgentUserDto, MessageDto, TalkSort } from '@kefu/protocol';

/** A chat entry as the console holds it: the server's entry plus the "waiting for a reply" mark. */
export interface ChatEntry extends AgentUserDto {
  /** An incoming message has not been answered yet. */
  waiting: boolean;
  /** When the oldest unanswered visitor message arrived (null when not waiting). */
  waitingSince: number | null;
  /** Arrived (`new`) and not opened yet: highlighted and counted in the badge. */
  fresh: boolean;
}

export interface ChatListState {
  list: ChatEntry[];
  selectedId: string | null;
}

export type ChatAction =
  | { type: 'load'; list: readonly AgentUserDto[]; sort: TalkSort }
  | { type: 'new'; entry: AgentUserDto; sort: TalkSort }
  | { type: 'end'; entry: Pick<AgentUserDto, 'id' | 'agentserviceid'> }
  | { type: 'over'; agentuserid: string; agentserviceid?: string }
  /** Invited to a chat (collaboration_new); `me` is this agent, whose own chats are not added again. */
  | { type: 'collaboration_new'; entry: AgentUserDto; me: string; sort: TalkSort }
  /** That collaboration is over for this agent (transfer, or it left): the entry goes. */
  | { type: 'collaboration_leave'; agentuserid: string; agentserviceid?: string }
  /** The chat it collaborates on ended. */
  | { type: 'collaboration_over'; agentuserid: string; agentserviceid?: string }
  | { type: 'select'; id: string | null }
  | { type: 'message'; msg: MessageDto; summary: string }
  /** The visitor's chat window connected or went away (`presence`). */
  | { type: 'presence'; agentserviceid: string; online: boolean; offtime: number | null }
  | { type: 'sort'; sort: TalkSort };

export const emptyChatList: ChatListState = { list: [], selectedId: null };

const toEntry = (a: AgentUserDto, prev?: ChatEntry): ChatEntry => ({
  ...a,
  waiting: prev?.waiting ?? a.tokenum > 0,
  waitingSince: prev?.waitingSince ?? (a.tokenum > 0 ? a.lastmessage : null),
  fresh: prev?.fresh ?? false,
});

/** A chat nobody can answer in any more: over, or its visitor has gone. */
export const isStale = (c: Pick<ChatEntry, 'over' | 'online'> | undefined): boolean =>
  !!c && (c.over === 1 || c.online === false);

const sortKey = (a: AgentUserDto, sort: TalkSort): number =>
  sort === 'lastmessage' ? (a.lastmessage ?? a.servicetime ?? a.createtime) : (a.servicetime ?? a.createtime);

/** Newest first by service start (default) or by the visitor's last message (spec section 4 sorting). */
export function sortChats<T extends AgentUserDto>(list: readonly T[], sort: TalkSort): T[] {
  return [...list].sort((a, b) => sortKey(b, sort) - sortKey(a, sort));
}

const matches = (c: ChatEntry, id: string | undefined, serviceId: string | undefined) =>
  (!!id && c.id === id) || (!!serviceId && c.agentserviceid === serviceId);

/** The chat-list rules of spec section 4, free of React so they can be tested one by one. */
export function chatListReducer(state: ChatListState, action: ChatAction): ChatListState {
  switch (action.type) {
    case 'load': {
      const prev = new Map(state.list.map((c) => [c.id, c]));
      // The server lists the agent's own chats; chats it collaborates on stay as they are.
      const own = action.list.map((a) => toEntry(a, prev.get(a.id)));
      const collab = state.list.filter(
        (c) => c.collabora && !own.some((o) => matches(o, c.id, c.agentserviceid)),
      );
      const list = sortChats([...own, ...collab], action.sort);
      const keep = list.some((c) => c.id === state.selectedId);
      // The first chat is auto-selected on the dialogue tab.
      const selectedId = keep ? state.selectedId : (list[0]?.id ?? null);
      return select({ list, selectedId: null }, selectedId);
    }
    case 'new': {
      // An open chat that is over or whose visitor left gives way to the new one: a reply typed next
      // must not go into a dead chat. A live open chat keeps the agent where it is.
      const open = state.list.find((c) => c.id === state.selectedId);
      const takeOver = !open || isStale(open);
      const i = state.list.findIndex((c) => c.userid === action.entry.userid);
      if (i >= 0) {
        // Same visitor already listed: not added again, but the entry follows the newest conversation
        // (a returning visitor gets a new agentserviceid). If it is the open chat, over goes back to 0.
        const cur = state.list[i];
        const selected = cur.id === state.selectedId;
        const list = state.list.slice();
        list[i] = {
          ...toEntry(action.entry, cur),
          tokenum: selected ? 0 : Math.max(cur.tokenum, action.entry.tokenum),
          over: selected ? 0 : action.entry.over,
          fresh: !selected,
        };
        if (takeOver) return select({ list, selectedId: null }, action.entry.id);
        return { list, selectedId: selected ? action.entry.id : state.selectedId };
      }
      const list = sortChats([...state.list, { ...toEntry(action.entry), fresh: true }], action.sort);
      return takeOver ? select({ ...state, list }, action.entry.id) : { ...state, list };
    }
    case 'presence':
      return {
        ...state,
        list: state.list.map((c) =>
          c.agentserviceid === action.agentserviceid
            ? { ...c, online: action.online, offtime: action.offtime }
            : c,
        ),
      };
    case 'end':
      return remove(state, (c) => matches(c, action.entry.id, action.entry.agentserviceid));
    case 'collaboration_new': {
      const e = action.entry;
      if (e.agentno === action.me) return state;
      if (state.list.some((c) => matches(c, e.id, e.agentserviceid))) return state;
      const list = sortChats([...state.list, toEntry({ ...e, collabora: 1 })], action.sort);
      return state.selectedId ? { ...state, list } : select({ ...state, list }, e.id);
    }
    case 'collaboration_leave':
      // Only a collaborator entry goes: a new owner (it took the transfer) keeps its chat.
      return remove(state, (c) => !!c.collabora && matches(c, action.agentuserid, action.agentserviceid));
    case 'over':
    case 'collaboration_over':
      return {
        ...state,
        list: state.list.map((c) =>
          matches(c, action.agentuserid, action.agentserviceid) ? { ...c, over: 1 } : c,
        ),
      };
    case 'select':
      return select(state, action.id);
    case 'message':
      return applyMessage(state, action.msg, action.summary);
    case 'sort':
      return { ...state, list: sortChats(state.list, action.sort) };
  }
}

/** Drops the first matching entry; if it was selected, the next one (or the previous at the end) is. */
function remove(state: ChatListState, hit: (c: ChatEntry) => boolean): ChatListState {
  const idx = state.list.findIndex(hit);
  if (idx < 0) return state;
  const removed = state.list[idx];
  const list = state.list.filter((_, j) => j !== idx);
  if (removed.id !== state.selectedId) return { ...state, list };
  const next = list[Math.min(idx, list.length - 1)]?.id ?? null;
  return select({ list, selectedId: null }, next);
}

function select(state: ChatListState, id: string | null): ChatListState {
  return {
    selectedId: id,
    list: state.list.map((c) =>
      c.id === id && (c.tokenum !== 0 || c.fresh) ? { ...c, tokenum: 0, fresh: false } : c,
    ),
  };
}

function applyMessage(state: ChatListState, m: MessageDto, summary: string): ChatListState {
  if (m.type === 'writing') return state;
  const i = state.list.findIndex((c) => c.agentserviceid === m.agentserviceid);
  if (i < 0) return state;
  const cur = state.list[i];
  let next: ChatEntry = { ...cur, lastmsg: summary };
  if (m.calltype === 'in') {
    const selected = cur.id === state.selectedId;
    next = {
      ...next,
      lastmessage: m.createtime,
      tokenum: selected ? 0 : Math.max(m.tokenum, cur.tokenum + 1),
      waiting: true,
      waitingSince: cur.waiting ? cur.waitingSince : m.createtime,
    };
  } else if (m.calltype === 'out' && m.type === 'message') {
    // The agent answered: the waiting time starts again from zero.
    next = { ...next, lastgetmessage: m.createtime, waiting: false, waitingSince: null, waitingtime: 0 };
  }
  const list = state.list.slice();
  list[i] = next;
  return { ...state, list };
}

/** ms the visitor has been waiting for an answer (0 when not waiting). */
export const waitedMs = (c: ChatEntry, now: number): number =>
  c.waiting && c.waitingSince ? Math.max(0, now - c.waitingSince) : 0;

/** Total unread over the list (document title, menu badge). */
export const unreadTotal = (s: ChatListState): number => s.list.reduce((n, c) => n + (c.tokenum || 0), 0);

/** New chats not opened yet (the tab badge counts them with the unread messages). */
export const freshTotal = (s: ChatListState): number => s.list.reduce((n, c) => n + (c.fresh ? 1 : 0), 0);
