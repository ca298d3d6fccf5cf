import { randomBytes } from 'node:crypto';
import type { Db } from '../../../platform/db/database.js';
import { newId } from '../../../platform/ids.js';
import type { FakeWecom } from '../../../../test/fake-platform/index.js';
import { webhookPath } from '../webhook.routes.js';

/** A 43-character EncodingAESKey. */
export const randomAesKey = (): string => randomBytes(32).toString('base64').slice(0, 43);

/**
 * A WeChat KF app (the fake's corp) and one KF account routed to `organ`, stored directly; the fake is
 * told where to push.
 */
export async function addKfApp(
  db: Db,
  baseUrl: string,
  wecom: FakeWecom,
  opts: { organ?: string | null; name?: string } = {},
): Promise<{ appid: string; accountid: string; kfid: string; token: string; aeskey: string }> {
  const now = Date.now();
  const appid = newId();
  const token = randomBytes(8).toString('hex');
  const aeskey = randomAesKey();
  await db.kysely
    .insertInto('channel_app')
    .values({
      id: appid,
      orgi: 'kefu',
      channel: 'wechat',
      name: 'corp',
      platform_appid: wecom.corpid,
      secret: wecom.secret,
      token,
      aeskey,
      createtime: now,
      updatetime: now,
    })
    .execute();
  const kfid = wecom.addAccount(opts.name ?? '售后客服');
  const accountid = newId();
  await db.kysely
    .insertInto('channel_account')
    .values({
      id: accountid,
      orgi: 'kefu',
      appid,
      channel: 'wechat',
      extid: kfid,
      name: opts.name ?? '售后客服',
      organ: opts.organ ?? null,
      createtime: now,
      updatetime: now,
    })
    .execute();
  wecom.push = { url: `${baseUrl}${webhookPath('wechat', appid)}`, token, aeskey, receiveId: wecom.corpid };
  return { appid, accountid, kfid, token, aeskey };
}
