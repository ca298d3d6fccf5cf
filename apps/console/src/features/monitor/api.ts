import type {
  AgentUserDto,
  MessageDto,
  MonitorAuditDto,
  MonitorChatDto,
  MonitorCounters,
  MonitorDesktopDto,
  MonitorRuleDto,
  MonitorService,
  MonitorTab,
  Page,
  StaticAgentDto,
  StoredAgentState,
  WhisperDto,
} from '@kefu/protocol';
import { get, post, request } from '../../lib/api';

/** A chat named by its conversation id (all monitor actions). */
type Chat = { agentserviceid: string };

/** The monitor calls of spec section 7 ("Get monitor desktop/index", /api/monitor/*) and docs/api.md. */
export const monitorApi = {
  desktop: (type: MonitorTab, service?: MonitorService) =>
    get<MonitorDesktopDto>('/monitor/desktop', { type, service }),
  index: (type: MonitorTab, service?: MonitorService) =>
    get<{ businessList: MonitorChatDto[] } & MonitorCounters>('/monitor/current/index', { type, service }),
  timeoutSize: () => request<number>('/monitor/timeoutAgentserviceSize', { silent: true }),
  staticAgent: (userid?: string) => get<{ list: StaticAgentDto[] }>('/monitor/staticagent', { userid }),
  endAgent: (userid: string, status: StoredAgentState) =>
    get<{ status: StoredAgentState }>('/monitor/endAgent', { userid, status }),
  end: (c: Chat) => get<null>('/monitor/end', c),
  transfer: (c: Chat & { agentno?: string; organ?: string; memo?: string }) =>
    get<AgentUserDto>('/monitor/transfer', c),
  takeover: (c: Chat) => get<AgentUserDto>('/monitor/takeover', c),
  aiChange: (c: Chat & { ai: boolean }) =>
    get<{ agentserviceid: string; ai: 0 | 1; status: string; agentno: string | null }>(
      '/monitor/aiChange',
      c,
    ),
  whisper: (c: Chat & { clientId: string; message: string }) => post<WhisperDto>('/monitor/whisper', c),
  barge: (c: Chat & { clientId: string; message: string }) => post<MessageDto>('/monitor/barge', c),
  whispers: (agentserviceid: string) =>
    request<WhisperDto[]>('/monitor/whispers', { params: { agentserviceid }, silent: true }),
  /** The newest page, or the lines after seq `after` (the transcript's refresh). */
  messages: (agentserviceid: string, q: { after?: number } = {}) =>
    get<{ list: MessageDto[]; hasMore: boolean }>('/monitor/chatMessage', { agentserviceid, ...q, ps: 100 }),
  audit: (q: { agentserviceid?: string; p?: number; ps?: number }) =>
    get<Page<MonitorAuditDto>>('/monitor/audit', q),
  rules: () => get<{ list: MonitorRuleDto[] }>('/monitor/rules'),
  saveRules: (r: Partial<MonitorRuleDto> & { organ: string }) =>
    post<MonitorRuleDto>('/monitor/rules/save', r),
};
