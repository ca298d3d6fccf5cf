import type { ChannelAppDto, PlatformChannel, PushMode, SnsAccountDto } from '@kefu/protocol';
import type { AppRow } from './adapters/adapter.js';
import type { AccountListRow } from './setup.repository.js';

export const presentAccount = (r: AccountListRow): SnsAccountDto => ({
  id: r.id,
  channel: r.channel as PlatformChannel,
  name: r.name,
  extid: r.extid,
  appid: r.appid,
  platformAppId: r.platform_appid,
  organ: r.organ,
  organname: r.organname ?? '',
  robotid: r.robotid ?? null,
  robotname: r.robotname ?? '',
  enabled: Number(r.enabled) === 1,
  createtime: Number(r.createtime),
  updatetime: Number(r.updatetime),
});

/** How an app's single account routes its users (WeChat KF apps: none, their accounts route themselves). */
export interface AppRouting {
  organ: string | null;
  robotid: string | null;
}

/** The app as the forms edit it: never the secret, only whether one is set. */
export const presentApp = (r: AppRow, { organ, robotid }: AppRouting): ChannelAppDto => ({
  id: r.id,
  channel: r.channel as PlatformChannel,
  name: r.name,
  platformAppId: r.platform_appid,
  secretSet: r.secret !== '',
  token: r.token,
  aeskey: r.aeskey,
  mode: r.mode as PushMode,
  format: r.format === 'json' ? 'json' : 'xml',
  extid: r.extid,
  organ,
  robotid,
  createtime: Number(r.createtime),
  updatetime: Number(r.updatetime),
});
