import type {
  AgentUserDto,
  ContactDto,
  ConversationSummaryDto,
  MessageDto,
  Page,
  PageViewDto,
  StoredAgentState,
  SystemLineDto,
  TalkSort,
  WithdrawNotice,
} from '@kefu/protocol';
import { CLIENT_TEXTS, CODES, ERROR_MESSAGES, type ErrorKey } from '@kefu/protocol';
import { get, post, request } from '../../lib/api';
import { getToken } from '../../lib/storage';
import { notify } from '../../lib/notify';
import { i18n } from '../../lib/i18n';

/** An ended conversation as GET /api/talk/end/agentusers lists it (an agent_service row). */
export interface EndedService {
  id: string;
  userid: string;
  username: string;
  name?: string;
  channel: string;
  createtime: number;
  servicetime: number | null;
  endtime: number | null;
  endby: string | null;
  browser?: string;
  osname?: string;
  country?: string;
  province?: string;
  city?: string;
  url?: string;
  phone?: string;
}

export interface MessagePage {
  list: MessageDto[];
  hasMore: boolean;
  agentserviceid: string;
}

export interface TransferAgent {
  id: string;
  username: string;
  uname: string;
  nickname?: string | null;
  organ?: string | null;
  users?: number;
  maxusers?: number;
}

export interface TransferForm {
  skillList: { id: string; name: string; parentid: string | null }[];
  agentList: TransferAgent[];
}

export interface ChatData {
  agentUser: AgentUserDto;
  agentService: Record<string, unknown> & { osname?: string; url?: string; title?: string; ipaddr?: string };
  visitor: {
    id: string;
    name?: string;
    phone?: string;
    email?: string;
    ip?: string;
    browser?: string;
    os?: string;
    region?: string;
    source?: string;
    url?: string;
    title?: string;
    channel?: string;
  } | null;
  tags: string[];
  /** The service summary (topic + memo) and the contact the visitor is linked to. */
  summary: ConversationSummaryDto;
  contact: ContactDto | null;
  /** The website pages the visitor went through, newest first. */
  trail?: PageViewDto[];
}

export interface QuickReply {
  id: string;
  title?: string;
  content: string;
  cate?: string;
}

export interface UploadResult {
  id: string;
  kind: string;
  mime: string;
  size: number;
  filename: string;
  url: string;
}

/** The conversation calls of docs/protocol.md, named as in spec section 7. */
export const talkApi = {
  agentUsers: (talksort: TalkSort, signal?: AbortSignal) =>
    get<{ agentUserList: AgentUserDto[]; businessList: unknown[] }>('/talk/agentuser', { talksort }, signal),
  /** First page without `before`; later pages pass the previous page's `next` cursor (keyset). */
  ended: (before: string | undefined, ps = 20, signal?: AbortSignal) =>
    get<{ agentServices: Page<EndedService> & { next: string | null } }>(
      '/talk/end/agentusers',
      before ? { before, ps } : { ps },
      signal,
    ),
  messages: (q: { agentserviceid: string; before?: number; ps?: number }, ended = false) =>
    // A newer history call cancels an older one (request layer); callers ignore the cancelled one.
    request<MessagePage>(ended ? '/talk/end/message' : '/talk/chatMessage', {
      params: { ...q, ps: q.ps ?? 20 },
    }),
  data: (id: string, signal?: AbortSignal) => get<ChatData>('/talk/data', { id }, signal),
  /** The visitor's notices that are not messages (welcome, assignment, transfers, end). */
  systemLines: (agentserviceid: string) =>
    request<SystemLineDto[]>('/talk/systemLines', { params: { agentserviceid }, silent: true }),
  read: (agentserviceid: string, orgi?: string) =>
    request<null>('/talk/read', { params: { agentserviceid, orgi }, silent: true }),
  readMsg: (userid: string) => request<null>('/talk/readmsg', { params: { userid }, silent: true }),
  withdraw: (id: string) => get<WithdrawNotice>('/talk/withdraw', { id }),
  transferForm: (organ?: string) => get<TransferForm>('/talk/transfer/form', { organ }),
  transfer: (q: { agentuserid: string; agentno?: string; organ?: string; memo?: string }) =>
    get<{ id: string; timeout: number; to: string }>('/talk/transfer', q),
  transferAccept: (agentuserid: string) => get<AgentUserDto>('/talk/transfer/accept', { agentuserid }),
  transferRefuse: (agentuserid: string) => get<null>('/talk/transfer/refuse', { agentuserid }),
  end: (agentuserid: string) => get<null>('/talk/end', { agentuserid }),
  leaveCollaboration: (agentuserid: string) => get<null>('/talk/invite/leave', { agentuserid }),
  invite: (agentuserid: string, userid: string) => post<null>('/talk/invite', { agentuserid, userid }),
  colleagues: (signal?: AbortSignal) =>
    get<Array<{ id: string; username: string; uname: string }>>('/common/userList', undefined, signal),
  statf: (agentserviceid: string) => get<null>('/talk/statf', { agentserviceid }),
  black: (b: { agentuserid: string; controltime: number; description: string }) =>
    post<null>('/talk/black', b),
};

export const agentApi = {
  setState: (s: StoredAgentState) => get<{ status: StoredAgentState }>(`/agent/${s}`),
  status: () => request<{ status: StoredAgentState }>('/agent/status', { silent: true }),
  ping: () => request<{ time: number }>('/agent/ping', { silent: true }),
};

/** Optional endpoints built by other features: a missing one (404) is an empty state, not an error toast. */
export const optionalApi = {
  quickReplies: () => request<QuickReply[] | Page<QuickReply>>('/quickreply', { silent: true }),
  leaveMessageSize: () => request<number>('/leavemsg/size', { silent: true }),
};

export const mediaUrl = (kind: 'image' | 'file' | 'video' | 'voice', id: string): string =>
  `/res/${kind}.html?id=${encodeURIComponent(id)}&authorization=${encodeURIComponent(getToken())}`;

export type UploadKind = 'image' | 'file' | 'voice';
const UPLOAD_PATH: Record<UploadKind, string> = {
  image: '/api/upload',
  file: '/api/file/upload',
  voice: '/api/voice/upload',
};

function errorText(key: string | undefined, msg: string | undefined): string {
  if (key) {
    const k = `error.${key}`;
    if (i18n.isInitialized && i18n.exists(k)) return i18n.t(k);
    const m = (ERROR_MESSAGES as Record<string, { zh: string; en: string } | undefined>)[key as ErrorKey];
    if (m) return (i18n.language ?? 'zh').startsWith('en') ? m.en : m.zh;
  }
  return msg || CLIENT_TEXTS.serverError;
}

interface UploadEnvelope {
  success?: boolean;
  data?: UploadResult;
  msg?: string;
  key?: string;
  code?: number;
}

/** Multipart upload (field `file`) with a plain fetch; errors are toasted here. */
export async function upload(kind: UploadKind, file: File): Promise<UploadResult> {
  const body = new FormData();
  body.append('file', file, file.name);
  let res: Response;
  try {
    res = await fetch(UPLOAD_PATH[kind], { method: 'POST', headers: { authorization: getToken() }, body });
  } catch {
    notify.error(CLIENT_TEXTS.timeout);
    throw new Error(CLIENT_TEXTS.timeout);
  }
  let env: UploadEnvelope | null;
  try {
    env = (await res.json()) as UploadEnvelope;
  } catch {
    env = null;
  }
  if (env?.success && env.data) return env.data;
  const text = res.status === CODES.unauthorized ? CLIENT_TEXTS.notLoggedIn : errorText(env?.key, env?.msg);
  notify.error(text);
  throw new Error(text);
}
