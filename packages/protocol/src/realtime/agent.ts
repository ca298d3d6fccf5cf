import type { AgentState } from '../constants.js';
import type {
  AckFn,
  AgentReportDto,
  AgentUserDto,
  MessageDto,
  StoredAgentState,
  TransferPromptDto,
  TransferResultDto,
} from './dto.js';
import type { z } from 'zod';
import type { agentMessageSchema, agentReplaySchema, collaborationSchema } from './schemas.js';
import type { ReplayPage, ResyncNotice } from './resume.js';
import type { RestartHint } from './restart.js';
import type { MonitorClientToServerEvents, MonitorServerToClientEvents } from '../monitor.js';
import type { DeliveryNotice } from '../messaging.js';
import type { QualityNotice } from '../quality.js';

export const AGENT_NAMESPACE = '/im/agent';

/**
 * Connect query of /im/agent (spec: orgi, userid, a random 32-char uuid, session = the token, admin).
 * `lastSeqs` (JSON `{agentserviceid: seq}`) asks for the messages missed while disconnected; they are
 * emitted as `message` events right after connect, in seq order.
 */
export interface AgentHandshakeQuery {
  orgi?: string;
  userid?: string;
  uuid?: string;
  session: string;
  admin?: string;
  lastSeqs?: string;
}

export interface AgentWorkStatus {
  status: AgentState;
  /** Why: 'ready' | 'notready' | 'busy' | 'heartbeat' | 'disconnect' | 'login'. */
  reason: string;
}

export interface AgentStatusNotice {
  userid: string;
  status: StoredAgentState;
  users: number;
  maxusers: number;
}

export interface ReadNotice {
  agentserviceid: string;
  userid: string;
  /** Everything up to this seq has been read by the other side. */
  seq: number;
}

export interface WithdrawNotice {
  id: string;
  agentserviceid: string;
  seq: number;
  usession: string;
}

export interface OverNotice {
  agentuserid: string;
  agentserviceid: string;
  userid: string;
  endby: string;
}

export interface NoticeDto {
  /** 'agent_timeout' | 'withdraw' | 'writing' | 'transfer' | 'info' */
  type: string;
  agentserviceid?: string;
  userid?: string;
  message: string;
  seq?: number;
  id?: string;
}

/** `presence`: the visitor's chat window connected or went away (offtime: since when it is away). */
export interface VisitorPresence {
  agentserviceid: string;
  userid: string;
  online: boolean;
  offtime: number | null;
}

export interface CollaborationLeave {
  agentuserid: string;
  agentserviceid: string;
}

/** Events the agent client receives. */
export interface AgentServerToClientEvents extends MonitorServerToClientEvents {
  workstatus: (p: AgentWorkStatus) => void;
  new: (p: AgentUserDto) => void;
  end: (p: AgentUserDto) => void;
  message: (p: MessageDto) => void;
  read: (p: ReadNotice) => void;
  trans: (p: TransferPromptDto) => void;
  exchange: (p: TransferResultDto) => void;
  status: (p: AgentReportDto) => void;
  notice: (p: NoticeDto) => void;
  over: (p: OverNotice) => void;
  agentstatus: (p: AgentStatusNotice) => void;
  collaboration_new: (p: AgentUserDto) => void;
  collaboration_leave: (p: CollaborationLeave) => void;
  collaboration_over: (p: OverNotice) => void;
  /** The visitor of one of this agent's chats came or went (chat window connected or not). */
  presence: (p: VisitorPresence) => void;
  /** Cross-node delivery was down and is back: replay each followed conversation from its resume position. */
  resync: (p: ResyncNotice) => void;
  /** The server is shutting down and will be back soon: reconnect promptly (restart.ts). */
  restart: (p: RestartHint) => void;
  /** A message's delivery to a messaging platform changed (sent, or failed for good with the reason). */
  delivery: (p: DeliveryNotice) => void;
  /** Quality inspection: a result sent to the agent, an appeal's change or answer, a window closing soon. */
  quality: (p: QualityNotice) => void;
}

export type AgentMessagePayload = z.input<typeof agentMessageSchema>;
export type CollaborationPayload = z.input<typeof collaborationSchema>;
export type AgentReplayPayload = z.input<typeof agentReplaySchema>;

/** Events the agent client sends; every one takes an ack `{success, data|msg, code}`. */
export interface AgentClientToServerEvents extends MonitorClientToServerEvents {
  agentstatus: (p: { status: StoredAgentState }, ack?: AckFn<{ status: StoredAgentState }>) => void;
  ping: (p: unknown, ack?: AckFn<{ time: number }>) => void;
  collaboration: (p: CollaborationPayload, ack?: AckFn<AgentUserDto>) => void;
  /** A chat message (ack after it is stored) or, with type 'writing', a typing notice. */
  message: (p: AgentMessagePayload, ack?: AckFn<MessageDto | null>) => void;
  /** One page of a followed conversation's messages after a seq (resync, a hole in what the client holds). */
  replay: (p: AgentReplayPayload, ack?: AckFn<ReplayPage>) => void;
}
