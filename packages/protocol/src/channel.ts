import type {
  ConsultConfig,
  DialogueConfig,
  InformationConfig,
  InviteConfig,
  LeavemsgConfig,
  LeaveMsgStatus,
} from './schemas/channel.js';
import type { Holiday, SpecialWorkday, WeekDayHours } from './worktime.js';

/** Defaults of each per-access-point settings section (a section never saved reads as its default). */
export const CONSULT_DEFAULT: ConsultConfig = {
  enabled: true,
  icon: 'chat',
  color: '#2C68FF',
  text: '在线客服',
  position: 'right-bottom',
};
export const INVITE_DEFAULT: InviteConfig = {
  enabled: false,
  delay: 10,
  text: '您好，有什么可以帮您的吗？',
  image: '',
  acceptText: '现在咨询',
  laterText: '稍后再说',
};
export const DIALOGUE_DEFAULT: DialogueConfig = {
  color: '#2C68FF',
  bubbleColor: '#E8F0FF',
  logo: '',
  agentName: '客服',
  companyName: '',
  adEnabled: false,
  adText: '',
  adImage: '',
  adUrl: '',
};
const rule = (enabled: boolean, required: boolean) => ({ enabled, required });
export const INFORMATION_DEFAULT: InformationConfig = {
  enabled: false,
  name: rule(true, false),
  phone: rule(true, false),
  email: rule(false, false),
  question: rule(true, false),
  rememberHours: 1,
};
const show = (s: boolean, required: boolean) => ({ show: s, required });
export const LEAVEMSG_DEFAULT: LeavemsgConfig = {
  enabled: true,
  notice: '当前无法为您提供在线服务，请留下您的联系方式和问题，我们会尽快联系您。',
  fields: {
    name: show(true, true),
    mobile: show(true, true),
    email: show(true, false),
    content: show(true, true),
  },
};
export const SATISFACTION_LEVELS_DEFAULT = ['非常满意', '满意', '一般', '不满意', '非常不满意'];

export interface AccessPointDto {
  id: string;
  name: string;
  domain: string;
  organ: string | null;
  organname: string;
  createtime: number;
  updatetime: number;
}

export interface AccessCodeDto {
  appid: string;
  code: string;
}

export interface FaqItemDto {
  id: string;
  question: string;
  answer: string;
  sortindex: number;
}

export interface SatisfactionLevelDto {
  value: number;
  name: string;
}

export interface OpinionDto {
  id: string;
  name: string;
  sortindex: number;
}

export interface SatisfactionSettingsDto {
  enabled: boolean;
  text: string;
  multi: boolean;
  comment: boolean;
  levels: SatisfactionLevelDto[];
}

/** Public GET /im/config?appid= — everything the visitor widget needs about its access point. */
export interface WidgetConfigDto {
  access: { id: string; name: string; domain: string };
  consult: ConsultConfig;
  invite: InviteConfig;
  /** The chat window section, with the welcome of the prompts (sessionmsg) in the visitor's language. */
  dialogue: DialogueConfig & { welcome: string };
  information: InformationConfig;
  faq: { id: string; question: string; answer: string }[];
  satisfaction: {
    enabled: boolean;
    text: string;
    levels: SatisfactionLevelDto[];
    opinions: { id: string; name: string }[];
    comment: boolean;
    multi: boolean;
  };
  leavemsg: LeavemsgConfig;
  /** The organisation's skill groups (departments with skill=1), for /visitor/navigation. */
  skills: { id: string; name: string }[];
}

export interface WorkScheduleDto {
  id: string;
  name: string;
  /** null = the whole organisation (fallback for departments without their own schedule). */
  organ: string | null;
  organname: string;
  enabled: boolean;
  timezone: string;
  notinwhmsg: string;
  weekly: WeekDayHours[];
  holidays: Holiday[];
  workdays: SpecialWorkday[];
  createtime: number;
  updatetime: number;
}

export interface LeaveMessageDto {
  id: string;
  appid: string;
  accessname: string;
  userid: string;
  name: string;
  mobile: string;
  email: string;
  content: string;
  status: LeaveMsgStatus;
  agentno: string | null;
  agentname: string;
  note: string;
  ip: string;
  createtime: number;
  allocatetime: number | null;
  donetime: number | null;
}

export interface BlackEntryDto {
  id: string;
  kind: 'user' | 'ip';
  /** The visitor id or the IP address. */
  value: string;
  description: string;
  controltime: number;
  /** null = forever. */
  endtime: number | null;
  expired: boolean;
  creater: string;
  createtime: number;
}
