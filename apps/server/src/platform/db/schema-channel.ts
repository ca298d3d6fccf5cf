import type { Generated } from 'kysely';

/** Tables of migration 0003_visitor_channel. Times are epoch ms; booleans 0/1; JSON as text. */
export interface ChannelSettingTable {
  orgi: string;
  /** An access point id (appid) for widget sections, '' for tenant-wide sections. */
  scope: string;
  section: string;
  config: string;
  updatetime: number;
}

export interface AccessFaqTable {
  id: string;
  orgi: string;
  appid: string;
  question: string;
  answer: string;
  sortindex: Generated<number>;
  createtime: number;
  updatetime: number;
}

export interface WorkServiceTable {
  id: string;
  orgi: string;
  /** '' = the whole organisation. */
  organ: Generated<string>;
  name: string;
  enabled: Generated<number>;
  timezone: string;
  notinwhmsg: Generated<string>;
  weekly: string;
  holidays: string;
  workdays: string;
  createtime: number;
  updatetime: number;
}

export interface SatisOpinionTable {
  id: string;
  orgi: string;
  name: string;
  sortindex: Generated<number>;
  createtime: number;
  updatetime: number;
}

export interface SatisRatingTable {
  agentserviceid: string;
  orgi: string;
  userid: string;
  agentno: string | null;
  level: number;
  levelname: string;
  /** JSON array of {id, name}. */
  opinions: string;
  comment: Generated<string>;
  times: Generated<number>;
  createtime: number;
  updatetime: number;
}

export interface LeaveMessageTable {
  id: string;
  orgi: string;
  appid: string;
  userid: string;
  name: Generated<string>;
  mobile: Generated<string>;
  email: Generated<string>;
  content: Generated<string>;
  /** new | allocated | done */
  status: string;
  agentno: string | null;
  allocator: string | null;
  allocatetime: number | null;
  note: Generated<string>;
  donetime: number | null;
  ip: Generated<string>;
  createtime: number;
  updatetime: number;
}

export interface BlacklistIpTable {
  id: string;
  orgi: string;
  ip: string;
  creater: string;
  description: Generated<string>;
  controltime: Generated<number>;
  endtime: number | null;
  createtime: number;
}

export interface ChannelTables {
  channel_setting: ChannelSettingTable;
  access_faq: AccessFaqTable;
  work_service: WorkServiceTable;
  satis_opinion: SatisOpinionTable;
  satis_rating: SatisRatingTable;
  leave_message: LeaveMessageTable;
  blacklist_ip: BlacklistIpTable;
}
