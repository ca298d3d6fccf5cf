import { z } from 'zod';
import { MONITOR_SERVICES, MONITOR_TABS } from '../monitor.js';
import { MESSAGE_MAX_CHARS, STORED_AGENT_STATES } from '../realtime/dto.js';
import { flag } from './fields.js';
import { chatMessageQuery } from '../realtime/schemas.js';

/** Request schemas of /api/monitor/* and the `monitor` socket event (server validation, console calls). */
const id = z.string().trim().min(1, 'required').max(64, 'too_long');
const optId = z.string().trim().max(64, 'too_long').optional();
const clientId = z.string().min(8, 'invalid_field').max(64, 'too_long');

/** A conversation by its id or by its chat entry's id (as /api/talk/end). */
const chatRef = z.object({ agentserviceid: optId, agentuserid: optId });
const needsChat = <T extends { agentserviceid?: string; agentuserid?: string }>(q: T) =>
  !!(q.agentserviceid || q.agentuserid);
const chatRequired = { message: 'required', path: ['agentserviceid'] };

export const monitorDesktopQuery = z.object({
  type: z.enum(MONITOR_TABS, 'invalid_field').default('lastmessage'),
  /** '' (all), 'ai' or 'service'. */
  service: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(MONITOR_SERVICES, 'invalid_field').optional(),
  ),
});
export const monitorIndexQuery = monitorDesktopQuery;

export const monitorChatQuery = chatRef.refine(needsChat, chatRequired);

/** Force an agent's state (default: signed out, i.e. notready). */
export const monitorEndAgentQuery = z.object({
  userid: id,
  status: z.enum(STORED_AGENT_STATES, 'invalid_field').default('notready'),
});

export const monitorStaticAgentQuery = z.object({ userid: optId });

/** A supervisor moves a chat: to an agent, or to the best ready agent of a group. */
export const monitorTransferQuery = chatRef
  .extend({ agentno: optId, organ: optId, memo: z.string().max(500, 'too_long').default('') })
  .refine(needsChat, chatRequired)
  .refine((q) => !!q.agentno || !!q.organ, { message: 'required', path: ['agentno'] });

/** AI ↔ human: without `ai` (or ai=false) the AI chat goes to a human (an agent, a group, or the queue). */
export const monitorAiChangeQuery = chatRef
  .extend({ ai: flag().default(false), agentno: optId, organ: optId })
  .refine(needsChat, chatRequired);

/** A supervisor's line in a chat: a whisper (agents only) or a barge-in (to the visitor, as themself). */
export const monitorSayBody = z.object({
  agentserviceid: id,
  clientId,
  message: z.string().trim().min(1, 'required').max(MESSAGE_MAX_CHARS, 'too_long'),
});

export const monitorAuditQuery = z.object({
  agentserviceid: optId,
  p: z.coerce.number().int('invalid_field').min(1, 'invalid_field').default(1),
  ps: z.coerce.number().int('invalid_field').min(1, 'invalid_field').max(100, 'invalid_field').default(20),
});

export const monitorWhispersQuery = z.object({ agentserviceid: id });
/** A chat's transcript page: /api/talk/chatMessage's paging, the chat by its id. */
export const monitorTranscriptQuery = chatMessageQuery.omit({ userid: true }).extend({ agentserviceid: id });

const seconds = (max: number) =>
  z.coerce
    .number({ error: 'invalid_field' })
    .int('invalid_field')
    .min(0, 'invalid_field')
    .max(max, 'invalid_field');
export const monitorRuleSaveBody = z.object({
  /** '' = the tenant default. */
  organ: z.string().trim().max(64, 'too_long').default(''),
  ringtimeout: seconds(3_600).optional(),
  ringmisses: seconds(100).optional(),
  replyalert: seconds(86_400).optional(),
  queuealert: seconds(86_400).optional(),
  busyalert: seconds(86_400).optional(),
});

export const monitorWatchSchema = z.object({ watch: flag() });
