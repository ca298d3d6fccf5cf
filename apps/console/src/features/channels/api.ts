import type {
  CallbackConfigDto,
  ChannelAppDto,
  ChannelWindowDto,
  ImrKind,
  ImrRuleDto,
  KfWayDto,
  Page,
  PlatformChannel,
  PushMode,
  SnsAccountDto,
} from '@kefu/protocol';
import { get, post } from '../../lib/api';

export interface AppFields {
  name: string;
  platformAppId: string;
  secret?: string;
  token?: string;
  aeskey?: string;
  mode?: PushMode;
  format?: 'xml' | 'json';
  organ?: string | null;
  /** Blank: no robot. */
  robotid?: string | null;
}

export const snsApi = {
  list: (channel?: PlatformChannel, signal?: AbortSignal) =>
    get<SnsAccountDto[]>('/snsAccount/list', { channel }, signal),
  save: (b: AppFields & { channel: PlatformChannel }) => post<ChannelAppDto>('/snsAccount/save', b),
  update: (b: AppFields & { id: string }) => post<ChannelAppDto>('/snsAccount/update', b),
  remove: (id: string) => post<null>('/snsAccount/delete', { id }),
};

const KF = '/wechat/kf';
export const kfApi = {
  callback: (id?: string) => get<CallbackConfigDto>(`${KF}/getCallbackConfig`, { id }),
  accounts: (signal?: AbortSignal) => get<SnsAccountDto[]>(`${KF}/associationList`, undefined, signal),
  pull: (id: string) => post<SnsAccountDto[]>(`${KF}/pullAccount`, { id }),
  add: (id: string, name: string) => post<SnsAccountDto>(`${KF}/addAccount`, { id, name }),
  rename: (accountid: string, name: string) =>
    post<SnsAccountDto>(`${KF}/updateAccount`, { accountid, name }),
  remove: (accountid: string) => post<null>(`${KF}/delAccount`, { accountid }),
  /** Routes the account to a skill group and (blank: none) a robot that answers first. */
  associate: (accountid: string, organ: string, robotid: string | null | undefined) =>
    post<SnsAccountDto>(`${KF}/association`, { accountid, organ, robotid: robotid ?? '' }),
  unassociate: (accountid: string) => post<SnsAccountDto>(`${KF}/unAssociation`, { accountid }),
  way: (accountid: string, scene: string) => get<KfWayDto>(`${KF}/getKfWay`, { accountid, scene }),
  /** One KF account's auto-replies (saved and deleted through appApi('weixin')). */
  rules: (accountid: string, signal?: AbortSignal) =>
    get<ImrRuleDto[]>(`${KF}/imr/list`, { accountid }, signal),
};

/** Official accounts (/api/wechat) and mini-programs (/api/weApp) share their calls. */
export const appApi = (channel: 'weixin' | 'weapp') => {
  const base = channel === 'weixin' ? '/wechat' : '/weApp';
  return {
    page: (q: { p: number; ps: number }, signal?: AbortSignal) =>
      get<Page<ChannelAppDto>>(`${base}/page`, q, signal),
    save: (b: AppFields) => post<ChannelAppDto>(`${base}/save`, b),
    update: (b: AppFields & { id: string }) => post<ChannelAppDto>(`${base}/update`, b),
    remove: (id: string) => post<null>(`${base}/delete`, { id }),
    scan: (id: string) => get<CallbackConfigDto>(`${base}/scan`, { id }),
    rules: (id: string, signal?: AbortSignal) => get<ImrRuleDto[]>(`${base}/imr/list`, { id }, signal),
    saveRule: (b: {
      id?: string;
      accountid: string;
      kind: ImrKind;
      keyword: string;
      contains: boolean;
      reply: string;
    }) => post<ImrRuleDto>(`${base}/imr/save`, b),
    removeRule: (id: string) => post<null>(`${base}/imr/delete`, { id }),
  };
};

export const windowApi = (agentserviceid: string, signal?: AbortSignal) =>
  get<ChannelWindowDto>('/channel/window', { agentserviceid }, signal);
