import { z } from 'zod';
import { DEFAULT_LANGUAGE } from './constants.js';
import { LANGUAGES } from './i18n/index.js';
import { idField, str } from './schemas/fields.js';

/**
 * Visitor-facing texts per language (`/api/visitorText`). The texts of the setup screens (prompts,
 * satisfaction, the widget sections of each access point) are the base texts, in BASE_TEXT_LANGUAGE. A
 * visitor whose widget speaks another language gets that language's text where one is set, the base
 * text otherwise. Each scope lists its keys (named as in the setup section they belong to) and the code
 * that may edit them; widget scopes (`site`) are per access point, row scopes (`row`) per row of a
 * setup list (a working-hours schedule, a satisfaction opinion), named by the row's id.
 */
export const BASE_TEXT_LANGUAGE = DEFAULT_LANGUAGE;
export const VISITOR_TEXT_MAX = 500;

export const VISITOR_TEXT_SCOPES = {
  prompt: {
    code: 'A09_A03_A01',
    site: false,
    row: false,
    keys: [
      'sessionmsg',
      'successmsg',
      'noagentmsg',
      'finessmsg',
      'transmsg',
      'timeoutmsg',
      'retimeoutmsg',
      'agenttimeoutmsg',
      'servicename',
    ],
  },
  lineUp: { code: 'A09_A03_A05', site: false, row: false, keys: ['agentbusymsg', 'quenetimeoutmsg'] },
  satisfaction: {
    code: 'A09_A03_A04',
    site: false,
    row: false,
    keys: ['satisftext', 'level1', 'level2', 'level3', 'level4', 'level5'],
  },
  consult: { code: 'A09_A04_A01', site: true, row: false, keys: ['text'] },
  invite: { code: 'A09_A04_A02', site: true, row: false, keys: ['text', 'acceptText', 'laterText'] },
  dialogue: { code: 'A09_A04_A03', site: true, row: false, keys: ['companyName', 'agentName', 'adText'] },
  leavemsg: { code: 'A09_A04_A04', site: true, row: false, keys: ['notice'] },
  /** A working-hours schedule's not-in-hours message (/setup/workingHours). */
  workingHours: { code: 'A09_A03_A03', site: false, row: true, keys: ['notinwhmsg'] },
  /** A satisfaction opinion's name, as the widget's rating form lists it (/setup/satisfaction). */
  opinion: { code: 'A09_A03_A04', site: false, row: true, keys: ['name'] },
} as const satisfies Record<string, { code: string; site: boolean; row: boolean; keys: readonly string[] }>;

export type VisitorTextScope = keyof typeof VISITOR_TEXT_SCOPES;
export const VISITOR_TEXT_SCOPE_NAMES = Object.keys(VISITOR_TEXT_SCOPES) as VisitorTextScope[];

/**
 * The stored scope of a section: tenant-wide ones by name, widget ones per access point, row ones per
 * row (`owner` is the access point's or the row's id).
 */
export const textScopeId = (scope: VisitorTextScope, owner?: string | null): string =>
  VISITOR_TEXT_SCOPES[scope].site || VISITOR_TEXT_SCOPES[scope].row ? `${scope}:${owner ?? ''}` : scope;

/** Languages a text can be set in besides the base one. */
export const TEXT_LANGUAGES = LANGUAGES.map((l) => l.language).filter((l) => l !== BASE_TEXT_LANGUAGE);

const scopeField = z.enum(VISITOR_TEXT_SCOPE_NAMES as [VisitorTextScope, ...VisitorTextScope[]], {
  error: 'invalid_field',
});
const langField = str()
  .trim()
  .refine((l) => (TEXT_LANGUAGES as string[]).includes(l), 'invalid_field');
const siteRule = (q: { scope: VisitorTextScope; appid?: string }) =>
  !VISITOR_TEXT_SCOPES[q.scope].site || !!q.appid;
const rowRule = (q: { scope: VisitorTextScope; rowid?: string }) =>
  !VISITOR_TEXT_SCOPES[q.scope].row || !!q.rowid;

/** GET /api/visitorText: one scope's texts in one language. */
export const visitorTextQuery = z
  .object({ scope: scopeField, lang: langField, appid: idField().optional(), rowid: idField().optional() })
  .refine(siteRule, { message: 'required', path: ['appid'] })
  .refine(rowRule, { message: 'required', path: ['rowid'] });

/** POST /api/visitorText/save: the scope's texts in that language ('' = use the base text). */
export const visitorTextSaveSchema = z
  .object({
    scope: scopeField,
    lang: langField,
    appid: idField().optional(),
    rowid: idField().optional(),
    texts: z.record(z.string(), str().trim().max(VISITOR_TEXT_MAX, 'too_long'), { error: 'invalid_field' }),
  })
  .refine(siteRule, { message: 'required', path: ['appid'] })
  .refine(rowRule, { message: 'required', path: ['rowid'] })
  .refine(
    (b) =>
      Object.keys(b.texts).every((k) => (VISITOR_TEXT_SCOPES[b.scope].keys as readonly string[]).includes(k)),
    {
      message: 'invalid_field',
      path: ['texts'],
    },
  );

/** Public GET /im/config: the access point's widget settings, texts in the widget's language `l`. */
export const widgetConfigQuery = z.object({
  appid: idField(),
  l: z.string().max(16, 'too_long').optional(),
});

export interface VisitorTextsDto {
  scope: VisitorTextScope;
  appid: string | null;
  /** The row of a row scope (null otherwise). */
  rowid: string | null;
  lang: string;
  base: string;
  /** The texts set in `lang` (a key missing or '' falls back to the base text). */
  texts: Record<string, string>;
  /** The base texts of the scope's keys, for reference. */
  defaults: Record<string, string>;
}

/** Texts the seed sets in English (the base texts are Chinese): prompts, satisfaction and the demo site. */
export const SEED_EN_TEXTS = {
  prompt: {
    sessionmsg: 'Hello, welcome! How can we help you?',
    successmsg: '{agent} is now serving you.',
    noagentmsg: 'No agent is online right now. Please leave us a message.',
    finessmsg: 'The agent has ended the conversation.',
    transmsg: 'You have been transferred to {agent}.',
    timeoutmsg: 'You have been quiet for a while. The conversation will end soon if there is nothing else.',
    retimeoutmsg: 'The conversation has ended as there was no reply for a long time.',
    agenttimeoutmsg: 'Our agent is busy, please wait a moment.',
    servicename: 'System',
  },
  lineUp: {
    agentbusymsg: 'You are in the queue; {num} visitor(s) ahead of you.',
    quenetimeoutmsg: 'Many visitors are waiting right now. Please leave us a message and we will reply soon.',
  },
  satisfaction: {
    satisftext: 'Please rate the service of {agent}',
    level1: 'Very satisfied',
    level2: 'Satisfied',
    level3: 'Neutral',
    level4: 'Dissatisfied',
    level5: 'Very dissatisfied',
  },
  consult: { text: 'Chat with us' },
  invite: { text: 'Hello, can we help you?', acceptText: 'Chat now', laterText: 'Later' },
  dialogue: { companyName: 'Xinghe Home (demo)', agentName: 'Support' },
  leavemsg: {
    notice:
      'We cannot serve you online right now. Leave your contact details and question, and we will get back to you soon.',
  },
} as const satisfies { [S in VisitorTextScope]?: Partial<Record<string, string>> };
