/**
 * Contacts (`/api/contacts/*`, console route /card, code A05): people the company talks to, linked to the
 * visitors and messaging-platform users they appear as. Times are epoch ms. See docs/api.md "Contacts".
 */
import type { TagDto } from './tags.js';

/** The /card screen and every /api/contacts call but PUT (which the chat panel uses with A01). */
export const CONTACTS_CODE = 'A05';

export const GENDERS = ['', 'male', 'female'] as const;
export type Gender = (typeof GENDERS)[number];

/**
 * Channels a contact can be linked through (spec section 1): `webim` is a website visitor id; the others
 * are a platform user id (openid and the like) of that channel.
 */
export const CONTACT_CHANNELS = ['webim', 'bcp', 'douyin', 'weixin', 'weapp', 'wechat'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];

export const CONTACT_LIMITS = {
  name: 50,
  company: 100,
  region: 100,
  address: 255,
  memo: 1000,
  /** Rows of one .xlsx import (all or nothing, in one transaction). */
  importRows: 5000,
  /** Bytes of an uploaded .xlsx. */
  importBytes: 5 * 1024 * 1024,
} as const;

/** A contact's optional texts when nothing is known (every one may be cleared to ''). */
export const EMPTY_CONTACT_TEXTS = {
  phone: '',
  email: '',
  company: '',
  gender: '' as Gender,
  region: '',
  address: '',
  birthday: '',
  memo: '',
};

export interface ContactIdentityDto {
  channel: ContactChannel;
  /** The visitor id (webim) or the platform user id. */
  userid: string;
  createtime: number;
}

export interface ContactDto {
  id: string;
  name: string;
  /** Mobile, 11 digits ('' = none). */
  phone: string;
  /** Comma-separated addresses ('' = none). */
  email: string;
  company: string;
  gender: Gender;
  region: string;
  address: string;
  /** YYYY-MM-DD or ''. */
  birthday: string;
  memo: string;
  tags: TagDto[];
  /** The user responsible for the contact, and their name. */
  owner: string | null;
  ownername: string;
  /** The owner's department when the contact was saved (data-permission scope). */
  organ: string | null;
  creater: string;
  createtime: number;
  updatetime: number;
  identities: ContactIdentityDto[];
}

/** One conversation of a contact's timeline (every visitor/platform identity it holds). */
export interface ContactConversationDto {
  id: string;
  channel: string;
  userid: string;
  username: string;
  status: string;
  agentno: string | null;
  agentusername: string;
  createtime: number;
  endtime: number | null;
  userasks: number;
  agentreplys: number;
  topicid: string | null;
  topicname: string;
  summary: string;
}

/** GET /api/contacts/view: the contact and a page of its conversations (newest first). */
export interface ContactViewDto {
  contact: ContactDto;
  timeline: { list: ContactConversationDto[]; total: number; page: number; size: number };
}

/** A row of an .xlsx import that was refused: sheet row number (1 = header), column and error key. */
export interface ImportRowError {
  row: number;
  field: string;
  key: string;
}

/** The columns of a contacts .xlsx (export and import), in order. */
export const CONTACT_SHEET_COLUMNS = [
  'id',
  'name',
  'phone',
  'email',
  'company',
  'gender',
  'region',
  'address',
  'birthday',
  'memo',
  'tags',
  'owner',
  'createtime',
  'updatetime',
] as const;
export type ContactSheetColumn = (typeof CONTACT_SHEET_COLUMNS)[number];

/** Header texts of the .xlsx columns; an import accepts either language. */
export const CONTACT_SHEET_HEADERS: Record<'zh' | 'en', Record<ContactSheetColumn, string>> = {
  zh: {
    id: '编号',
    name: '姓名',
    phone: '手机',
    email: '邮箱',
    company: '公司',
    gender: '性别',
    region: '地区',
    address: '地址',
    birthday: '生日',
    memo: '备注',
    tags: '标签',
    owner: '负责人',
    createtime: '创建时间',
    updatetime: '更新时间',
  },
  en: {
    id: 'ID',
    name: 'Name',
    phone: 'Mobile',
    email: 'Email',
    company: 'Company',
    gender: 'Gender',
    region: 'Region',
    address: 'Address',
    birthday: 'Birthday',
    memo: 'Memo',
    tags: 'Tags',
    owner: 'Owner',
    createtime: 'Created',
    updatetime: 'Updated',
  },
};

/** Gender as written in a sheet (either language) ↔ stored value. */
export const GENDER_TEXTS: Record<'zh' | 'en', Record<Gender, string>> = {
  zh: { '': '', male: '男', female: '女' },
  en: { '': '', male: 'Male', female: 'Female' },
};
