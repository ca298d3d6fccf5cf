import { z } from 'zod';
import { MESSAGE_MAX_CHARS, MSG_TYPES, STORED_AGENT_STATES } from './dto.js';
import { TALK_SORTS } from '../constants.js';
import { REPLAY_PAGE_SIZE } from './resume.js';

const id = z.string().min(1, 'required').max(64, 'too_long');
const clientId = z.string().min(8, 'invalid_field').max(64, 'too_long');
const optText = (max: number) => z.string().max(max, 'too_long').optional();

/** Agent → server `message` (spec payload + clientId; `type:'writing'` is a typing notice, not stored). */
export const agentMessageSchema = z
  .object({
    appid: optText(64),
    userid: optText(64),
    sign: optText(256),
    /** The visitor id of the chat. */
    touser: id,
    session: optText(256),
    orgi: optText(64),
    username: optText(128),
    nickname: optText(128),
    message: z.string().max(MESSAGE_MAX_CHARS, 'too_long').default(''),
    msgtype: z.enum(MSG_TYPES, 'invalid_field').default('text'),
    attachmentid: z.string().max(64, 'too_long').optional().nullable(),
    langfrom: optText(16),
    agentserviceid: z.string().max(64, 'too_long').optional(),
    type: z.enum(['message', 'writing'], 'invalid_field').default('message'),
    clientId: clientId.optional(),
  })
  .refine((m) => m.type === 'writing' || m.clientId !== undefined, {
    message: 'required',
    path: ['clientId'],
  })
  .refine((m) => m.type === 'writing' || m.msgtype !== 'text' || m.message.trim() !== '', {
    message: 'required',
    path: ['message'],
  })
  .refine(
    (m) => m.msgtype === 'text' || m.msgtype === 'emoticon' || m.msgtype === 'tips' || !!m.attachmentid,
    {
      message: 'required',
      path: ['attachmentid'],
    },
  );
export type AgentMessageInput = z.infer<typeof agentMessageSchema>;

export const agentStatusSchema = z.object({ status: z.enum(STORED_AGENT_STATES, 'invalid_field') });
export const collaborationSchema = z.object({ id, orgi: optText(64), organ: optText(64) });

/** Visitor connect query on /im/user. */
export const visitorHandshakeSchema = z.object({
  appid: id,
  userid: z
    .string()
    .length(32, 'invalid_field')
    .regex(/^[A-Za-z0-9_-]+$/, 'invalid_field'),
  token: optText(128),
  sessionid: optText(64),
  lastSeq: z.coerce.number().int().min(0).optional(),
  /** The widget's language: the texts sent to this visitor are chosen by it (fallback: the base texts). */
  l: z.string().max(16, 'too_long').optional(),
});

export const visitorNewSchema = z.object({
  skill: optText(64),
  agent: optText(64),
  name: optText(64),
  phone: optText(32),
  email: optText(128),
  resion: optText(500),
  title: optText(500),
  url: optText(2000),
  traceid: optText(64),
  osname: optText(64),
  browser: optText(64),
});

export const visitorMessageSchema = z
  .object({
    clientId,
    message: z.string().max(MESSAGE_MAX_CHARS, 'too_long').default(''),
    msgtype: z.enum(MSG_TYPES, 'invalid_field').default('text'),
    attachmentid: z.string().max(64, 'too_long').optional().nullable(),
  })
  .refine((m) => m.msgtype !== 'text' || m.message.trim() !== '', { message: 'required', path: ['message'] })
  .refine((m) => m.msgtype === 'text' || m.msgtype === 'emoticon' || !!m.attachmentid, {
    message: 'required',
    path: ['attachmentid'],
  });
export type VisitorMessageInput = z.infer<typeof visitorMessageSchema>;

export const visitorWritingSchema = z.object({ message: optText(MESSAGE_MAX_CHARS) });

const replayAfter = z.coerce.number().int('invalid_field').min(0, 'invalid_field');
const replayPs = z.coerce
  .number()
  .int('invalid_field')
  .min(1, 'invalid_field')
  .max(REPLAY_PAGE_SIZE, 'invalid_field')
  .default(REPLAY_PAGE_SIZE);
/** Agent → server `replay`: one page of a conversation after seq `after` (catch-up after `resync`, a gap). */
export const agentReplaySchema = z.object({ agentserviceid: id, after: replayAfter, ps: replayPs });
/** Visitor → server `replay`: the same for its own conversation (the latest one when no id is given). */
export const visitorReplaySchema = z.object({
  agentserviceid: id.optional(),
  after: replayAfter,
  ps: replayPs,
});
export const visitorReadSchema = z.object({ seq: z.coerce.number().int().min(0) });
export const withdrawSchema = z.object({ id });

// ---- /api/talk queries and bodies ----
export const talkAgentUserQuery = z.object({
  talksort: z.enum(TALK_SORTS, 'invalid_field').default('servicetime'),
});
export const talkDataQuery = z.object({
  id: z.string().max(64).optional(),
  userid: z.string().max(64).optional(),
});
export const talkPageQuery = z.object({
  p: z.coerce.number().int().min(1).default(1),
  ps: z.coerce.number().int().min(1).max(100).default(20),
});
/**
 * Ended conversations: `before=<endtime>:<id>` (the `next` cursor of the previous page) pages by keyset;
 * without it `p` pages by offset.
 */
export const endedListQuery = talkPageQuery.extend({
  before: z
    .string()
    .max(100)
    .regex(/^\d+:[^:]+$/)
    .optional(),
});
/** Keyset paging by seq: `before` returns older messages (newest page when absent); `after` returns newer. */
export const chatMessageQuery = z.object({
  agentserviceid: z.string().max(64).optional(),
  userid: z.string().max(64).optional(),
  before: z.coerce.number().int().min(1).optional(),
  after: z.coerce.number().int().min(0).optional(),
  ps: z.coerce.number().int().min(1).max(100).default(20),
});
export const serviceIdQuery = z.object({
  agentserviceid: z.string().min(1, 'required').max(64),
  orgi: z.string().max(64).optional(),
});
export const agentUserIdQuery = z.object({ agentuserid: z.string().min(1, 'required').max(64) });
/** GET /api/talk/end: the conversation by its id or by its chat entry's id. */
export const endChatQuery = z
  .object({ agentserviceid: z.string().max(64).optional(), agentuserid: z.string().max(64).optional() })
  .refine((q) => !!(q.agentserviceid || q.agentuserid), { message: 'required', path: ['agentserviceid'] });
export const readMsgQuery = z.object({ userid: z.string().min(1, 'required').max(64) });
export const transferFormQuery = z.object({ organ: z.string().max(64).optional() });
export const transferQuery = z
  .object({
    agentuserid: z.string().min(1, 'required').max(64),
    organ: z.string().max(64).optional(),
    agentno: z.string().max(64).optional(),
    memo: z.string().max(500, 'too_long').default(''),
  })
  .refine((q) => !!q.organ || !!q.agentno, { message: 'required', path: ['agentno'] });
export const tagRelationBody = z.object({
  agentserviceid: z.string().min(1, 'required').max(64),
  tagid: z.string().min(1, 'required').max(64),
  checked: z.union([z.boolean(), z.enum(['true', 'false'])]).default(true),
});
export const inviteBody = z.object({
  agentuserid: z.string().min(1, 'required').max(64),
  userid: z.string().min(1, 'required').max(64),
});
export const blackBody = z.object({
  agentuserid: z.string().min(1, 'required').max(64),
  /** Hours; 0 = permanent. */
  controltime: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 365 * 10)
    .default(0),
  description: z.string().max(500, 'too_long').default(''),
});
