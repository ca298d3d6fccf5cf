/**
 * The access point's public widget settings (`GET /im/config?appid=`), normalised so every field has a
 * sane value: a missing endpoint, a missing section or a field of the wrong type falls back to defaults.
 */
export type ConsultPosition = 'right-bottom' | 'left-bottom' | 'right-middle' | 'left-middle';

export interface FieldRule {
  show: boolean;
  required: boolean;
}

export interface WidgetConfig {
  access: { id: string; name: string; domain: string };
  consult: { enabled: boolean; color: string; text: string; position: ConsultPosition; icon: string };
  invite: {
    enabled: boolean;
    /** Seconds after page load. */
    delay: number;
    title: string;
    content: string;
    accept: string;
    refuse: string;
  };
  dialogue: { title: string; color: string; logo: string; welcome: string; width: number; height: number };
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
  };
  leavemsg: { message: string; fields: Record<LeaveField, FieldRule> };
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
    consult: { enabled: true, color: '#1677ff', text: '', position: 'right-bottom', icon: '' },
    invite: { enabled: false, delay: 10, title: '', content: '', accept: '', refuse: '' },
    dialogue: { title: '', color: '#1677ff', logo: '', welcome: '', width: 420, height: 640 },
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
      items: [
        { value: '01', label: '管理人员的业务能力不够' },
        { value: '02', label: '客服人员的服务态度不好' },
        { value: '03', label: '不能得到及时服务' },
        { value: '04', label: '其他' },
      ],
      comment: true,
    },
    leavemsg: {
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

function rules<K extends string>(raw: unknown, defaults: Record<K, FieldRule>): Record<K, FieldRule> {
  const r = obj(raw);
  const out = { ...defaults };
  for (const k of Object.keys(defaults) as K[]) {
    const f = obj(r[k]);
    out[k] = { show: bool(f.show, defaults[k].show), required: bool(f.required, defaults[k].required) };
    if (!out[k].show) out[k].required = false;
  }
  return out;
}

function options(raw: unknown, d: { value: string; label: string }[]): { value: string; label: string }[] {
  if (!Array.isArray(raw)) return d;
  const list = raw
    .map((x) => obj(x))
    .map((x) => ({ value: str(x.value ?? x.code ?? x.id, ''), label: str(x.label ?? x.name ?? x.text, '') }))
    .filter((x) => x.value !== '' && x.label !== '');
  return list.length ? list : d;
}

/** Accepts the endpoint's `data` (or anything) and returns a complete config. */
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
  const position = str(c.position, d.consult.position) as ConsultPosition;
  return {
    access: { id: str(a.id, appid), name: str(a.name, ''), domain: str(a.domain, '') },
    consult: {
      enabled: bool(c.enabled, true),
      color: color(c.color, d.consult.color),
      text: str(c.text, ''),
      position: POSITIONS.includes(position) ? position : d.consult.position,
      icon: safeUrl(c.icon),
    },
    invite: {
      enabled: bool(i.enabled, false),
      delay: num(i.delay, d.invite.delay, 0, 3600),
      title: str(i.title, ''),
      content: str(i.content, ''),
      accept: str(i.accept, ''),
      refuse: str(i.refuse, ''),
    },
    dialogue: {
      title: str(g.title, ''),
      color: color(g.color, color(c.color, d.dialogue.color)),
      logo: safeUrl(g.logo),
      welcome: str(g.welcome, ''),
      width: num(g.width, d.dialogue.width, 320, 1200),
      height: num(g.height, d.dialogue.height, 400, 1000),
    },
    information: {
      enabled: bool(inf.enabled, false),
      remember: num(inf.remember, d.information.remember, 0, 30 * 86400),
      fields: rules(inf.fields, d.information.fields),
    },
    faq: Array.isArray(r.faq)
      ? r.faq
          .map((x) => obj(x))
          .map((x) => ({ title: str(x.title, ''), content: str(x.content, '') }))
          .filter((x) => x.title !== '')
      : [],
    satisfaction: {
      enabled: bool(s.enabled, true),
      levels: options(s.levels, d.satisfaction.levels),
      items: Array.isArray(s.items) ? options(s.items, []) : d.satisfaction.items,
      comment: bool(s.comment, true),
    },
    leavemsg: { message: str(l.message, ''), fields: rules(l.fields, d.leavemsg.fields) },
    skills: Array.isArray(r.skills)
      ? r.skills
          .map((x) => obj(x))
          .map((x) => ({ id: str(x.id, ''), name: str(x.name, '') }))
          .filter((x) => x.id !== '' && x.name !== '')
      : [],
  };
}

/** Fetches and normalises; any failure gives the defaults (the widget must still work). */
export async function loadConfig(base: string, appid: string): Promise<WidgetConfig> {
  try {
    const res = await fetch(`${base}/im/config?appid=${encodeURIComponent(appid)}`, { credentials: 'omit' });
    if (!res.ok) return defaultConfig(appid);
    const body = obj(await res.json());
    return normalizeConfig(appid, body.success === false ? {} : body.data);
  } catch {
    return defaultConfig(appid);
  }
}
