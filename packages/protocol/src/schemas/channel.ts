import { z } from 'zod';
import { PHONE_RE, isEmailList, isIp } from '../validators.js';
import { DATE_RE, checkRange, checkRanges, isValidTimezone } from '../worktime.js';
import { LIMITS, flag, idField, idList, optionalId, requiredText, str } from './fields.js';

/**
 * Request schemas of the visitor channel (website access, widget settings, working hours,
 * satisfaction, leave messages, blacklist). Texts are stored as plain text, never rendered as HTML.
 */
export const COLOR_RE = /^#[0-9A-Fa-f]{6}$/;
/** http(s) URL or a same-origin path (uploaded media: /res/image.html?id=…); '' clears it. */
export const isSafeUrl = (v: string): boolean =>
  v === '' || /^https?:\/\/[^\s"'<>]+$/i.test(v) || /^\/(?!\/)[^\s"'<>]*$/.test(v);
export const DOMAIN_RE = /^(https?:\/\/)?[A-Za-z0-9.-]+(:\d{1,5})?(\/[^\s"'<>]*)?$/;

export const text = (max: number) => str().trim().max(max, 'too_long');
export const colorField = () => str().trim().regex(COLOR_RE, 'invalid_field');
export const urlField = () => text(500).refine(isSafeUrl, 'invalid_field');
export const intField = (min: number, max: number) =>
  z.coerce
    .number({ error: 'invalid_field' })
    .int('invalid_field')
    .min(min, 'invalid_field')
    .max(max, 'invalid_field');

const appid = { appid: idField() };

// ---- website access points (A09_A01_A01)
const accessFields = {
  name: requiredText(LIMITS.name),
  domain: text(255)
    .refine((v) => v === '' || DOMAIN_RE.test(v), 'invalid_field')
    .optional()
    .default(''),
  organ: optionalId(),
};
export const accessSaveSchema = z.object(accessFields);
export const accessUpdateSchema = z.object({ id: idField(), ...accessFields });
export const appidQuery = z.object(appid);
/** GET /api/webim/accesscode: the access point as `id` or (as the spec's callers send it) `appid`. */
export const accessCodeQuery = z
  .object({ id: idField().optional(), appid: idField().optional() })
  .refine((q) => !!(q.id ?? q.appid), { message: 'required', path: ['id'] });

// ---- consult icon (A09_A04_A01)
export const CONSULT_ICONS = ['chat', 'service', 'phone', 'message'] as const;
export const CONSULT_POSITIONS = ['right-bottom', 'left-bottom', 'right-middle', 'left-middle'] as const;
export const consultFields = z.object({
  enabled: flag(),
  icon: z.enum(CONSULT_ICONS, { error: 'invalid_field' }),
  color: colorField(),
  text: text(20),
  position: z.enum(CONSULT_POSITIONS, { error: 'invalid_field' }),
});
export type ConsultConfig = z.infer<typeof consultFields>;
export const consultSaveSchema = consultFields.partial().extend(appid);

// ---- invite popup (A09_A04_A02)
export const inviteFields = z.object({
  enabled: flag(),
  delay: intField(0, 3600),
  text: text(200),
  image: urlField(),
  acceptText: text(10),
  laterText: text(10),
});
export type InviteConfig = z.infer<typeof inviteFields>;
export const inviteSaveSchema = inviteFields.partial().extend(appid);

// ---- chat window (A09_A04_A03)
export const dialogueFields = z.object({
  color: colorField(),
  bubbleColor: colorField(),
  logo: urlField(),
  agentName: text(20),
  companyName: text(50),
  // The welcome and the no-agent texts are the prompts' (sessionmsg, noagentmsg): one text, one place.
  adEnabled: flag(),
  adText: text(200),
  adImage: urlField(),
  adUrl: urlField(),
});
export type DialogueConfig = z.infer<typeof dialogueFields>;
export const dialogueSaveSchema = dialogueFields.partial().extend(appid);

// ---- information collection (A09_A04_A04)
const fieldRule = z.object({ enabled: flag(), required: flag() });
export const INFO_FIELDS = ['name', 'phone', 'email', 'question'] as const;
export const informationFields = z.object({
  enabled: flag(),
  name: fieldRule,
  phone: fieldRule,
  email: fieldRule,
  question: fieldRule,
  /** How long the widget remembers what the visitor typed (0 = not at all). */
  rememberHours: intField(0, 720),
});
export type InformationConfig = z.infer<typeof informationFields>;
export const informationSaveSchema = informationFields.partial().extend(appid);

// ---- leave-message form (A09_A04_A04)
const showRule = z.object({ show: flag(), required: flag() });
export const LEAVEMSG_FIELDS = ['name', 'mobile', 'email', 'content'] as const;
export const leavemsgFields = z.object({
  enabled: flag(),
  notice: text(500),
  fields: z.object({ name: showRule, mobile: showRule, email: showRule, content: showRule }),
});
export type LeavemsgConfig = z.infer<typeof leavemsgFields>;
export const leavemsgConfigSaveSchema = leavemsgFields.partial().extend(appid);

// ---- FAQ (A09_A04_A05)
const faqFields = { question: requiredText(200), answer: requiredText(2000) };
export const problemSaveSchema = z.object({ ...appid, ...faqFields });
export const problemUpdateSchema = z.object({ id: idField(), ...faqFields });
export const problemSortSchema = z.object({ ...appid, ids: idList() });

// ---- working hours (A09_A03_A03)
const hhmm = str().trim();
const rangeSchema = z.object({ start: hhmm, end: hhmm }).superRefine((r, ctx) => {
  const err = checkRange(r);
  if (err) ctx.addIssue({ code: 'custom', message: err, path: ['start'] });
});
const rangesSchema = z
  .array(rangeSchema, { error: 'invalid_field' })
  .max(12, 'too_long')
  .superRefine((rs, ctx) => {
    const err = checkRanges(rs);
    if (err) ctx.addIssue({ code: 'custom', message: err });
  });
const dateField = () => str().trim().regex(DATE_RE, 'invalid_field');
const distinct = (keys: (string | number)[]) => new Set(keys).size === keys.length;

const workFields = {
  name: requiredText(LIMITS.name),
  organ: optionalId(),
  enabled: flag().optional(),
  timezone: text(64)
    .refine((v) => v === '' || isValidTimezone(v), 'invalid_field')
    .optional(),
  notinwhmsg: text(500).optional(),
  weekly: z
    .array(z.object({ day: intField(0, 6), ranges: rangesSchema }), { error: 'invalid_field' })
    .max(7, 'too_long')
    .refine((l) => distinct(l.map((d) => d.day)), 'invalid_field'),
  holidays: z
    .array(z.object({ date: dateField(), name: text(50) }), { error: 'invalid_field' })
    .max(366, 'too_long')
    .refine((l) => distinct(l.map((d) => d.date)), 'invalid_field')
    .optional(),
  workdays: z
    .array(z.object({ date: dateField(), ranges: rangesSchema }), { error: 'invalid_field' })
    .max(366, 'too_long')
    .refine((l) => distinct(l.map((d) => d.date)), 'invalid_field')
    .optional(),
};
/** At least one range somewhere, else time_range_invalid ("add a valid time range"). */
const hasRange = (v: { weekly: { ranges: unknown[] }[]; workdays?: { ranges: unknown[] }[] }) =>
  [...v.weekly, ...(v.workdays ?? [])].some((d) => d.ranges.length > 0);
export const workSaveSchema = z
  .object(workFields)
  .refine(hasRange, { message: 'time_range_invalid', path: ['weekly'] });
export const workUpdateSchema = z
  .object({ id: idField(), ...workFields })
  .refine(hasRange, { message: 'time_range_invalid', path: ['weekly'] });
export const workSwitchSchema = z.object({ id: idField(), enabled: flag() });
export const workListQuery = z.object({ organ: optionalId() });

// ---- satisfaction (A09_A03_A04)
export const satisfactionEnabledSchema = z.object({ enabled: flag() });
export const satisfactionUpdateSchema = z.object({
  text: text(200).optional(),
  /** Re-rating of the same conversation allowed. */
  multi: flag().optional(),
  /** Free-text comment offered. */
  comment: flag().optional(),
  levels: z
    .array(requiredText(20), { error: 'invalid_field' })
    .min(2, 'invalid_field')
    .max(5, 'too_long')
    .optional(),
});
const opinionName = { name: requiredText(LIMITS.name) };
export const opinionSaveSchema = z.object(opinionName);
export const opinionUpdateSchema = z.object({ id: idField(), ...opinionName });
export const opinionSortSchema = z.object({ ids: idList() });

/** Public: the visitor rates a conversation (POST /im/satis). */
export const visitorRatingSchema = z.object({
  ...appid,
  userid: requiredText(64),
  token: requiredText(128),
  agentserviceid: idField(),
  level: intField(1, 5),
  opinions: idList().optional(),
  comment: text(255).optional(),
});

// ---- leave messages
const mobile = text(LIMITS.mobile).refine((v) => v === '' || PHONE_RE.test(v), 'phone_format');
const email = text(LIMITS.email).refine((v) => isEmailList(v), 'email_format');
/** Public: the visitor leaves a message (POST /im/leavemsg); required fields follow the access point's settings. */
export const leaveMessageSchema = z.object({
  ...appid,
  userid: requiredText(64),
  token: text(128).optional(),
  name: text(LIMITS.name).optional().default(''),
  mobile: mobile.optional().default(''),
  email: email.optional().default(''),
  content: text(1000).optional().default(''),
});
export const LEAVEMSG_STATUSES = ['new', 'allocated', 'done'] as const;
export type LeaveMsgStatus = (typeof LEAVEMSG_STATUSES)[number];
export const leavemsgListQuery = z.object({
  status: z.enum(LEAVEMSG_STATUSES, { error: 'invalid_field' }).optional(),
  q: text(50).optional(),
});
export const leavemsgAllocateSchema = z.object({
  ids: idList().refine((l) => l.length > 0, 'required'),
  agentno: idField(),
});
export const leavemsgCompleteSchema = z.object({ id: idField(), note: text(500).optional() });

// ---- blacklist (A09_A03_A10)
const control = {
  /** Hours; 0 = forever. */
  controltime: intField(0, 87600).optional().default(0),
  description: text(255).optional().default(''),
};
export const blackSaveSchema = z.object({ userid: requiredText(64), ...control });
export const blackIpSchema = z.object({
  ip: requiredText(64).refine(isIp, 'ip_format'),
  ...control,
});
export const blackListQuery = z.object({
  kind: z.enum(['user', 'ip'], { error: 'invalid_field' }).optional(),
});
