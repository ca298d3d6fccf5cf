import type { z } from 'zod';
import type { AckFn, EndBy, MessageDto, ServiceStatus } from './dto.js';
import type { visitorMessageSchema, visitorNewSchema, visitorReplaySchema } from './schemas.js';
import type { ReplayPage, ResyncNotice } from './resume.js';
import type { RestartHint } from './restart.js';
import type { ReadNotice, WithdrawNotice } from './agent.js';

export const VISITOR_NAMESPACE = '/im/user';

/**
 * Connect query of /im/user. `userid` is a 32-char id the widget generates once and keeps;
 * `token` is the visitor credential the server returned in `welcome` (required once issued);
 * `lastSeq` is the last message seq the widget saw (missed messages follow `welcome`).
 */
export interface VisitorHandshakeQuery {
  appid: string;
  userid: string;
  token?: string;
  sessionid?: string;
  lastSeq?: string;
}

export interface VisitorAgentInfo {
  id: string;
  nickname: string;
}

export interface VisitorWelcome {
  userid: string;
  /** The visitor credential: keep it with userid; pass it as `token` on connect and as `?vt=` for media. */
  token: string;
  agentserviceid: string | null;
  status: ServiceStatus | 'none';
  agent: VisitorAgentInfo | null;
  position: number | null;
  lastseq: number;
  config: { welcome: string; name: string; satisfaction: boolean };
  /** The robot serving the open conversation (ai = 1), else null. */
  robot?: VisitorRobotInfo | null;
}

/** The robot a visitor talks to (docs/protocol.md "Robot"). */
export interface VisitorRobotInfo {
  id: string;
  name: string;
  avatar: string;
  /** Show the 转人工 button. */
  handoffButton: boolean;
}

/** The conversation went to the robot (robot set) or left it for a human (robot null). */
export interface RobotNotice {
  agentserviceid: string;
  robot: VisitorRobotInfo | null;
}

export interface QueueNotice {
  agentserviceid: string;
  /** 1-based place in the queue. */
  position: number;
  /** Visitors ahead (= position − 1). */
  ahead: number;
  message: string;
}

export interface AssignedNotice {
  agentserviceid: string;
  agent: VisitorAgentInfo;
  message: string;
  /** true when the chat moved to this agent by a transfer. */
  transfer: boolean;
}

export interface VisitorEndNotice {
  agentserviceid: string;
  endby: EndBy;
  message: string;
}

export interface LeaveMessageOffer {
  reason: 'noagent' | 'notinworktime' | 'blacklist';
  message: string;
}

export interface SatisfactionInvite {
  agentserviceid: string;
  message: string;
}

export interface WritingNotice {
  agentserviceid: string;
  message: string;
}

export interface StatusNotice {
  agentserviceid: string | null;
  message: string;
}

export interface VisitorServerToClientEvents {
  welcome: (p: VisitorWelcome) => void;
  queue: (p: QueueNotice) => void;
  assigned: (p: AssignedNotice) => void;
  message: (p: MessageDto) => void;
  writing: (p: WritingNotice) => void;
  read: (p: ReadNotice) => void;
  withdraw: (p: WithdrawNotice) => void;
  end: (p: VisitorEndNotice) => void;
  leavemsg: (p: LeaveMessageOffer) => void;
  satisfaction: (p: SatisfactionInvite) => void;
  status: (p: StatusNotice) => void;
  /** Cross-node delivery was down and is back: replay the conversation from the resume position. */
  resync: (p: ResyncNotice) => void;
  /** The server is shutting down and will be back soon: reconnect promptly (restart.ts). */
  restart: (p: RestartHint) => void;
  robot: (p: RobotNotice) => void;
}

export type VisitorNewPayload = z.input<typeof visitorNewSchema>;
export type VisitorMessagePayload = z.input<typeof visitorMessageSchema>;
export type VisitorReplayPayload = z.input<typeof visitorReplaySchema>;

export interface VisitorNewResult {
  agentserviceid: string;
  status: ServiceStatus;
  position: number | null;
  agent: VisitorAgentInfo | null;
  /**
   * Present only when this very `new` got the chat its agent (at once, or by the queue drain it waited
   * for): the `assigned` notice's text (may be empty). The ack then stands in for `assigned`, which goes
   * only to the visitor's other sockets, so the asking socket applies this exactly as it would apply
   * `assigned` ({agentserviceid, agent, message, transfer: false}). Absent otherwise (queued, or a
   * repeated `new` answering the current state): any later assignment arrives as `assigned`.
   */
  message?: string;
  /** The chat started with (or is still with) the robot. */
  robot?: VisitorRobotInfo | null;
}

export interface VisitorClientToServerEvents {
  /** Ask for an agent; repeated calls while queued or in service return the current state. */
  new: (p: VisitorNewPayload, ack?: AckFn<VisitorNewResult>) => void;
  message: (p: VisitorMessagePayload, ack?: AckFn<MessageDto>) => void;
  writing: (p: { message?: string }) => void;
  read: (p: { seq: number }, ack?: AckFn<null>) => void;
  withdraw: (p: { id: string }, ack?: AckFn<WithdrawNotice>) => void;
  /** The visitor closes the chat. */
  end: (p: unknown, ack?: AckFn<null>) => void;
  /** One page of the visitor's conversation after a seq (resync, a hole in what the widget holds). */
  replay: (p: VisitorReplayPayload, ack?: AckFn<ReplayPage>) => void;
  /** The 转人工 button: the robot's chat goes to a human (normal routing); the current state answers. */
  handoff: (p: unknown, ack?: AckFn<VisitorNewResult>) => void;
}
