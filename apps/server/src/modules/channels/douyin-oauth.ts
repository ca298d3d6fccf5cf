import { douyinCall, tokenFrom } from './adapters/douyin.js';
import type { AppRow } from './adapters/adapter.js';
import type { ChannelRuntime } from './runtime.js';

/** Exchanges an OAuth code for the business account's token and binds the account to its open_id. */
export async function douyinAuthorised(rt: ChannelRuntime, app: AppRow, code: string): Promise<void> {
  const o = await douyinCall(`${rt.bases.douyin}/oauth/access_token/`, {
    form: {
      client_key: app.platform_appid,
      client_secret: app.secret,
      code,
      grant_type: 'authorization_code',
    },
  });
  const t = tokenFrom(o, rt.now());
  await rt.saveToken(`douyin:${app.platform_appid}`, t);
  if (t.openId) {
    const k = rt.e.db.kysely;
    await k
      .updateTable('channel_app')
      .set({ extid: t.openId, updatetime: rt.now() })
      .where('id', '=', app.id)
      .execute();
    await k
      .updateTable('channel_account')
      .set({ extid: t.openId, updatetime: rt.now() })
      .where('appid', '=', app.id)
      .execute();
  }
}
