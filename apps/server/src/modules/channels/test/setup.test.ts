import { afterEach, describe, expect, it } from 'vitest';
import type { CallbackConfigDto, ChannelAppDto, ImrRuleDto, Page, SnsAccountDto } from '@kefu/protocol';
import { call, expectError, perTest, userWithCodes } from '../../../../test/factories.js';
import { startFakePlatform } from '../../../../test/fake-platform/index.js';

const pt = perTest();
let fake: Awaited<ReturnType<typeof startFakePlatform>> | null = null;
afterEach(async () => {
  await fake?.stop();
  fake = null;
});

async function seededWithFake() {
  const f = (fake = await startFakePlatform());
  const t = await pt.seeded({ channelBases: f.bases });
  return { t, f };
}

/** A seeded app whose tenant saved the fake's WeCom corp (channel wechat). */
async function withKfCorp() {
  const { t, f } = await seededWithFake();
  const corp = await call<ChannelAppDto>(t.app, t.adminToken, 'POST', '/api/snsAccount/save', {
    channel: 'wechat',
    name: '企业',
    platformAppId: f.wecom.corpid,
    secret: f.wecom.secret,
  });
  return { t, f, corp };
}

describe('channel setup calls', () => {
  it('snsAccount: save (token and key generated), list, page by channel, update keeps the secret, delete', async () => {
    const { t } = await seededWithFake();
    const a = t.adminToken;
    const oa = await call<ChannelAppDto>(t.app, a, 'POST', '/api/snsAccount/save', {
      channel: 'weixin',
      name: '官方公众号',
      platformAppId: 'wx1234567890',
      secret: 's3cret',
    });
    expect(oa.body.success).toBe(true);
    expect(oa.body.data).toMatchObject({ channel: 'weixin', secretSet: true, mode: 'safe' });
    expect(oa.body.data.aeskey).toMatch(/^[A-Za-z0-9+/]{43}$/);
    expect(JSON.stringify(oa.body.data)).not.toContain('s3cret');
    await call(t.app, a, 'POST', '/api/snsAccount/save', {
      channel: 'weapp',
      name: '小程序',
      platformAppId: 'wxapp0001',
    });
    expectError(
      await call(t.app, a, 'POST', '/api/snsAccount/save', {
        channel: 'weixin',
        name: 'dup',
        platformAppId: 'wx1234567890',
      }),
      'channel_app_exists',
    );
    expectError(
      await call(t.app, a, 'POST', '/api/snsAccount/save', {
        channel: 'weixin',
        name: 'x',
        platformAppId: 'wx2',
        aeskey: 'short',
      }),
      'invalid_field',
    );
    const list = await call<SnsAccountDto[]>(t.app, a, 'GET', '/api/snsAccount/list');
    expect(list.body.data.map((x) => x.channel).sort()).toEqual(['weapp', 'weixin']);
    const page = await call<Page<SnsAccountDto>>(
      t.app,
      a,
      'GET',
      '/api/snsAccount/page?channel=weixin&p=1&ps=10',
    );
    expect(page.body.data).toMatchObject({ total: 1, list: [{ name: '官方公众号', extid: 'wx1234567890' }] });
    const up = await call<ChannelAppDto>(t.app, a, 'POST', '/api/snsAccount/update', {
      id: oa.body.data.id,
      name: '新名字',
      platformAppId: 'wx1234567890',
      secret: '',
    });
    expect(up.body.data).toMatchObject({ name: '新名字', secretSet: true });
    const row = await t.db.kysely
      .selectFrom('channel_app')
      .select('secret')
      .where('id', '=', oa.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).toBe('s3cret');
    expect(
      (await call(t.app, a, 'POST', '/api/snsAccount/delete', { id: oa.body.data.id })).body.success,
    ).toBe(true);
    expect((await call<SnsAccountDto[]>(t.app, a, 'GET', '/api/snsAccount/list')).body.data).toHaveLength(1);
  });

  it('refuses callers without the channel codes', async () => {
    const { t } = await seededWithFake();
    const u = await userWithCodes(t, ['A01']);
    expectError(await call(t.app, u.token, 'GET', '/api/snsAccount/list'), 'forbidden', 403);
    expectError(await call(t.app, u.token, 'GET', '/api/wechat/kf/associationList'), 'forbidden', 403);
    expectError(await call(t.app, u.token, 'GET', '/api/weApp/page'), 'forbidden', 403);
    const weappOnly = await userWithCodes(t, ['A09_A01_A03']);
    expectError(await call(t.app, weappOnly.token, 'GET', '/api/wechat/page'), 'forbidden', 403);
    expect((await call(t.app, weappOnly.token, 'GET', '/api/weApp/page')).body.success).toBe(true);
  });

  it('WeChat KF: callback config, pull / add / update / delete accounts, association with a skill group, contact way', async () => {
    const { t, f, corp } = await withKfCorp();
    const a = t.adminToken;
    const id = corp.body.data.id;
    const cb = await call<CallbackConfigDto>(t.app, a, 'GET', `/api/wechat/kf/getCallbackConfig?id=${id}`);
    expect(cb.body.data).toMatchObject({ id, token: corp.body.data.token, aeskey: corp.body.data.aeskey });
    expect(cb.body.data.url).toMatch(new RegExp(`/webhook/wechat/${id}$`));
    f.wecom.addAccount('售前');
    f.wecom.addAccount('售后');
    const pulled = await call<SnsAccountDto[]>(t.app, a, 'POST', '/api/wechat/kf/pullAccount', { id });
    expect(pulled.body.data.map((x) => x.name).sort()).toEqual(['售前', '售后']);
    const added = await call<SnsAccountDto>(t.app, a, 'POST', '/api/wechat/kf/addAccount', {
      id,
      name: '投诉',
    });
    expect(f.wecom.accounts.get(added.body.data.extid)?.name).toBe('投诉');
    const renamed = await call<SnsAccountDto>(t.app, a, 'POST', '/api/wechat/kf/updateAccount', {
      accountid: added.body.data.id,
      name: '投诉建议',
    });
    expect(renamed.body.data.name).toBe('投诉建议');
    expect(f.wecom.accounts.get(added.body.data.extid)?.name).toBe('投诉建议');
    const organ = await t.db.kysely.selectFrom('organ').select(['id', 'name']).executeTakeFirstOrThrow();
    const assoc = await call<SnsAccountDto>(t.app, a, 'POST', '/api/wechat/kf/association', {
      accountid: added.body.data.id,
      organ: organ.id,
    });
    expect(assoc.body.data).toMatchObject({ organ: organ.id, organname: organ.name });
    expectError(
      await call(t.app, a, 'POST', '/api/wechat/kf/association', {
        accountid: added.body.data.id,
        organ: 'nope',
      }),
      'invalid_field',
    );
    const listed = await call<SnsAccountDto[]>(t.app, a, 'GET', '/api/wechat/kf/associationList');
    expect(listed.body.data.find((x) => x.id === added.body.data.id)?.organ).toBe(organ.id);
    await call(t.app, a, 'POST', '/api/wechat/kf/unAssociation', { accountid: added.body.data.id });
    expect(
      (await call<SnsAccountDto[]>(t.app, a, 'GET', '/api/wechat/kf/associationList')).body.data.find(
        (x) => x.id === added.body.data.id,
      )?.organ,
    ).toBeNull();
    const way = await call<{ url: string }>(
      t.app,
      a,
      'GET',
      `/api/wechat/kf/getKfWay?accountid=${added.body.data.id}&scene=spring`,
    );
    expect(way.body.data.url).toContain(added.body.data.extid);
    expectError(
      await call(t.app, a, 'GET', `/api/wechat/kf/getKfWay?accountid=${added.body.data.id}&scene=bad scene!`),
      'invalid_field',
    );
    await call(t.app, a, 'POST', '/api/wechat/kf/delAccount', { accountid: added.body.data.id });
    expect(f.wecom.accounts.has(added.body.data.extid)).toBe(false);
    expect(
      (await call<SnsAccountDto[]>(t.app, a, 'GET', '/api/wechat/kf/associationList')).body.data,
    ).toHaveLength(2);
  });

  it("WeChat KF: one account's auto-replies are listed by accountid (A09_A01_A02), not another account's", async () => {
    const { t, corp } = await withKfCorp();
    const a = t.adminToken;
    const id = corp.body.data.id;
    const one = await call<SnsAccountDto>(t.app, a, 'POST', '/api/wechat/kf/addAccount', {
      id,
      name: '售前',
    });
    const two = await call<SnsAccountDto>(t.app, a, 'POST', '/api/wechat/kf/addAccount', {
      id,
      name: '售后',
    });
    const welcome = await call<ImrRuleDto>(t.app, a, 'POST', '/api/wechat/imr/save', {
      accountid: one.body.data.id,
      kind: 'subscribe',
      reply: '欢迎光临',
    });
    await call(t.app, a, 'POST', '/api/wechat/imr/save', {
      accountid: two.body.data.id,
      kind: 'keyword',
      keyword: '价格',
      reply: '请看价目表',
    });
    const listOf = (accountid: string, token = a) =>
      call<ImrRuleDto[]>(t.app, token, 'GET', `/api/wechat/kf/imr/list?accountid=${accountid}`);
    const listed = await listOf(one.body.data.id);
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        id: welcome.body.data.id,
        kind: 'subscribe',
        keyword: '',
        reply: '欢迎光临',
      }),
    ]);
    expect((await listOf(two.body.data.id)).body.data.map((r) => r.keyword)).toEqual(['价格']);
    expectError(await listOf('nope'), 'not_found', 404);
    expectError(await call(t.app, a, 'GET', '/api/wechat/kf/imr/list'), 'required');
    const weappOnly = await userWithCodes(t, ['A09_A01_A03']);
    expectError(await listOf(one.body.data.id, weappOnly.token), 'forbidden', 403);
    const kfAdmin = await userWithCodes(t, ['A09_A01_A02']);
    expect((await listOf(one.body.data.id, kfAdmin.token)).body.data).toHaveLength(1);
  });

  it('a platform error in setup is shown, not swallowed (wrong secret)', async () => {
    const { t, f } = await seededWithFake();
    const corp = await call<ChannelAppDto>(t.app, t.adminToken, 'POST', '/api/snsAccount/save', {
      channel: 'wechat',
      name: '企业',
      platformAppId: f.wecom.corpid,
      secret: 'wrong',
    });
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/wechat/kf/pullAccount', { id: corp.body.data.id }),
      'channel_platform_error',
      502,
    );
  });
});
