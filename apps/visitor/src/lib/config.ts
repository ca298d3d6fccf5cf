/**
 * The access point's public widget settings (`GET /im/config?appid=`), normalised so every field has a
 * sane value: a missing endpoint, a missing section or a field of the wrong type falls back to defaults.
 */
export type ConsultPosition = 'right-bottom' | 'left-bottom' | 'right-middle' | 'left-middle';
export type ConsultIcon = 'chat' | 'service' | 'phone' | 'message';
const ICONS: readonly ConsultIcon[] = ['chat', 'service', 'phone', 'message'];

export interface FieldRule {
  show: boolean;
  required: boolean;
}

export interface WidgetConfig {
  access: { id: string; name: string; domain: string };
  consult: { enabled: boolean; color: string; text: string; position: ConsultPosition; icon: ConsultIcon };
  invite: {
    enabled: boolean;
    /** Seconds after page load. */
    delay: number;
    content: string;
    image: string;
    accept: string;
    refuse: string;
  };
  dialogue: {
    /** Company name shown as the window title. */
    title: string;
    color: string;
    logo: string;
    agentName: string;
    welcome: string;
    ad: { enabled: boolean; text: string; image: string; url: string };
    width: number;
    height: number;
  };
  information: {
    enabled: boolean;
    /** Seconds the filled form is remembered. */
    remember: number;
    fields: Record<InfoField, FieldRule>;
  };
  faq: { title: string; content: string }[];
  satisfaction: {
    enabled: boolean;
    levels: { value: string; label: string }[];
    items: { value: string; label: string }[];
    comment: boolean;
    /** The invitation text (`{agent}` is the agent's name). */
    text: string;
  };
  leavemsg: { enabled: boolean; message: string; fields: Record<LeaveField, FieldRule> };
  skills: { id: string; name: string }[];
}

export const INFO_FIELDS = ['name', 'phone', 'email', 'question'] as const;
export type InfoField = (typeof INFO_FIELDS)[number];
export const LEAVE_FIELDS = ['name', 'mobile', 'email', 'content'] as const;
export type LeaveField = (typeof LEAVE_FIELDS)[number];

const rule = (show: boolean, required: boolean): FieldRule => ({ show, required });

export function defaultConfig(appid: string): WidgetConfig {
  return {
    access: { id: appid, name: '', domain: '' },
    consult: { enabled: true, color: '#2C68FF', text: '', position: 'right-bottom', icon: 'chat' },
    invite: { enabled: false, delay: 10, content: '', image: '', accept: '', refuse: '' },
    dialogue: {
      title: '',
      color: '#2C68FF',
      logo: '',
      agentName: '',
      welcome: '',
      ad: { enabled: false, text: '', image: '', url: '' },
      width: 420,
      height: 640,
    },
    information: {
      enabled: false,
      remember: 3600,
      fields: {
        name: rule(true, false),
        phone: rule(true, false),
        email: rule(false, false),
        question: rule(true, false),
      },
    },
    faq: [],
    satisfaction: {
      enabled: true,
      levels: [
        { value: '1', label: '非常满意' },
        { value: '2', label: '满意' },
        { value: '3', label: '一般' },
        { value: '4', label: '不满意' },
        { value: '5', label: '非常不满意' },
      ],
      items: [],
      comment: true,
      text: '',
    },
    leavemsg: {
      enabled: true,
      message: '',
      fields: {
        name: rule(true, true),
        mobile: rule(true, true),
        email: rule(true, false),
        content: rule(true, true),
      },
    },
    skills: [],
  };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown, d: string): string =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : d;
const bool = (v: unknown, d: boolean): boolean =>
  typeof v === 'boolean'
    ? v
    : v === 1 || v === '1' || v === 'true'
      ? true
      : v === 0 || v === '0' || v === 'false'
        ? false
        : d;
const num = (v: unknown, d: number, min: number, max: number): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : d;
};
const COLOR_RE = /^#[0-9a-fA-F]{3,8}$|^rgba?\([\d\s.,%]+\)$/;
const color = (v: unknown, d: string): string =>
  typeof v === 'string' && COLOR_RE.test(v.trim()) ? v.trim() : d;
/** Only http(s), protocol-relative or root-relative URLs: never javascript: or data: from config. */
export const safeUrl = (v: unknown): string =>
  typeof v === 'string' && /^(https?:\/\/|\/)/i.test(v.trim()) ? v.trim() : '';
const POSITIONS: readonly ConsultPosition[] = ['right-bottom', 'left-bottom', 'right-middle', 'left-middle'];

/** Field rules; the server names the switch `show` (leave message) or `enabled` (information). */
function rules<K extends string>(raw: Obj, defaults: Record<K, FieldRule>): Record<K, FieldRule> {
  const out = { ...defaults };
  for (const k of Object.keys(defaults) as K[]) {
    const f = obj(raw[k]);
    const show = bool(f.show ?? f.enabled, defaults[k].show);
    out[k] = { show, required: show && bool(f.required, defaults[k].required) };
  }
  return out;
}

function options(raw: unknown): { value: string; label: string }[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .map((x) => obj(x))
    .map((x) => ({ value: str(x.value ?? x.id, ''), label: str(x.name ?? x.label, '') }))
    .filter((x) => x.value !== '' && x.label !== '');
}

const list = <T>(raw: unknown, f: (x: Obj) => T, keep: (x: T) => boolean): T[] =>
  Array.isArray(raw) ? raw.map((x) => f(obj(x))).filter(keep) : [];

/** Accepts the endpoint's `data` (GET /im/config, protocol WidgetConfigDto) or anything else. */
export function normalizeConfig(appid: string, raw: unknown): WidgetConfig {
  const d = defaultConfig(appid);
  const r = obj(raw);
  const a = obj(r.access);
  const c = obj(r.consult);
  const i = obj(r.invite);
  const g = obj(r.dialogue);
  const inf = obj(r.information);
  const s = obj(r.satisfaction);
  const l = obj(r.leavemsg);
  const position = str(c.position, '') as ConsultPosition;
  const icon = str(c.icon, '') as ConsultIcon;
  const levels = options(s.levels);
  return {
    access: { id: str(a.id, appid), name: str(a.name, ''), domain: str(a.domain, '') },
    consult: {
      enabled: bool(c.enabled, true),
      color: color(c.color, d.consult.color),
      text: str(c.text, ''),
      position: POSITIONS.includes(position) ? position : d.consult.position,
      icon: ICONS.includes(icon) ? icon : 'chat',
    },
    invite: {
      enabled: bool(i.enabled, false),
      delay: num(i.delay, d.invite.delay, 0, 3600),
      content: str(i.text, ''),
      image: safeUrl(i.image),
      accept: str(i.acceptText, ''),
      refuse: str(i.laterText, ''),
    },
    dialogue: {
      title: str(g.companyName, ''),
      color: color(g.color, color(c.color, d.dialogue.color)),
      logo: safeUrl(g.logo),
      agentName: str(g.agentName, ''),
      welcome: str(g.welcome, ''),
      ad: {
        enabled: bool(g.adEnabled, false),
        text: str(g.adText, ''),
        image: safeUrl(g.adImage),
        url: safeUrl(g.adUrl),
      },
      width: d.dialogue.width,
      height: d.dialogue.height,
    },
    information: {
      enabled: bool(inf.enabled, false),
      remember: num(inf.rememberHours, 1, 0, 720) * 3600,
      fields: rules(inf, d.information.fields),
    },
    faq: list(
      r.faq,
      (x) => ({ title: str(x.question, ''), content: str(x.answer, '') }),
      (x) => x.title !== '',
    ),
    satisfaction: {
      enabled: bool(s.enabled, true),
      levels: levels.length ? levels : d.satisfaction.levels,
      items: Array.isArray(s.opinions) ? options(s.opinions) : d.satisfaction.items,
      comment: bool(s.comment, true),
      text: str(s.text, ''),
    },
    leavemsg: {
      enabled: bool(l.enabled, true),
      message: str(l.notice, ''),
      fields: rules(obj(l.fields), d.leavemsg.fields),
    },
    skills: list(
      r.skills,
      (x) => ({ id: str(x.id, ''), name: str(x.name, '') }),
      (x) => x.id !== '' && x.name !== '',
    ),
  };
}

/**
 * Fetches and normalises, texts in the visitor's language `l` (the server falls back to the base texts);
 * any failure gives the defaults (the widget must still work).
 */
export async function loadConfig(base: string, appid: string, l: string): Promise<WidgetConfig> {
  try {
    const q = new URLSearchParams({ appid, l });
    const res = await fetch(`${base}/im/config?${q}`, { credentials: 'omit' });
    if (!res.ok) return defaultConfig(appid);
    const body = obj(await res.json());
    return normalizeConfig(appid, body.success === false ? {} : body.data);
  } catch {
    return defaultConfig(appid);
  }
}
