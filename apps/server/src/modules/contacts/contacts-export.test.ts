import { describe, expect, it } from 'vitest';
import type { ContactDto, TagDto } from '@kefu/protocol';
import { call, expectError, perTest, userWithCodes, type SeededApp } from '../../../test/factories.js';
import { addOrgan } from '../../../test/live.js';
import { upload } from '../media/media-fixtures.js';
import { exported as exportedFile, sheetRows, XLSX_MIME as XLSX } from '../../../test/exports.js';

const env = perTest();

const exported = (t: SeededApp, token: string, url: string) => exportedFile(t, token, url, 'contacts');

describe('contacts exports (expsearch / expids)', () => {
  it('export what the filter matches, then import the same file back unchanged', async () => {
    const t = await env.seeded();
    const vip = (
      await call<TagDto>(t.app, t.adminToken, 'POST', '/api/tag/save', { name: 'VIP', tagtype: 'user' })
    ).body.data;
    const save = (b: Record<string, unknown>) =>
      call<ContactDto>(t.app, t.adminToken, 'POST', '/api/contacts/save', b);
    const a = (
      await save({
        name: '张三',
        phone: '13800138000',
        email: 'a@x.cn',
        gender: 'male',
        birthday: '1990-01-02',
        tags: [vip.id],
      })
    ).body.data;
    await save({ name: '李四', company: '公司' });
    await save({ name: '王五', company: '公司' });

    const { job, file } = await exported(
      t,
      t.adminToken,
      `/api/contacts/expsearch?q=${encodeURIComponent('公司')}&tz=-480`,
    );
    expect(job).toMatchObject({ rows: 2, total: 2 });
    expect(job.filename).toMatch(/^联系人-\d{8}-\d{6}\.xlsx$/);
    expect((await sheetRows(file)).map((r) => r[1])).toEqual(['姓名', '王五', '李四']);

    const all = await exported(t, t.adminToken, '/api/contacts/expsearch');
    const rows = await sheetRows(all.file);
    expect(rows[0]).toEqual([
      '编号',
      '姓名',
      '手机',
      '邮箱',
      '公司',
      '性别',
      '地区',
      '地址',
      '生日',
      '备注',
      '标签',
      '负责人',
      '创建时间',
      '更新时间',
    ]);
    expect(rows.find((r) => r[0] === a.id)).toEqual([
      a.id,
      '张三',
      '13800138000',
      'a@x.cn',
      '',
      '男',
      '',
      '',
      '1990-01-02',
      '',
      'VIP',
      'admin',
      'date',
      'date',
    ]);

    const back = await upload(
      t,
      '/api/contacts/import',
      { authorization: t.adminToken },
      'back.xlsx',
      XLSX,
      all.file,
    );
    expect(back.json, JSON.stringify(back.json)).toMatchObject({
      success: true,
      data: { created: 0, updated: 3 },
    });
    const view = await call<{ contact: ContactDto }>(
      t.app,
      t.adminToken,
      'GET',
      `/api/contacts/view?id=${a.id}`,
    );
    expect(view.body.data.contact).toMatchObject({
      name: '张三',
      phone: '13800138000',
      gender: 'male',
      tags: [{ id: vip.id }],
    });
  });

  it('expids: the selected rows within the caller’s scope; nothing matched is a valid empty file; English headers', async () => {
    const t = await env.seeded();
    const d1 = await addOrgan(t, 'D1');
    const mine = await userWithCodes(t, ['A05'], { organ: d1 });
    const save = (token: string, name: string) =>
      call<ContactDto>(t.app, token, 'POST', '/api/contacts/save', { name });
    const x = (await save(mine.token, '甲')).body.data;
    const y = (await save(mine.token, '乙')).body.data;
    const foreign = (await save(t.adminToken, '别人的')).body.data;
    const { job, file } = await exported(
      t,
      mine.token,
      `/api/contacts/expids?ids=${[x.id, foreign.id, y.id].join(',')}`,
    );
    expect(job.total).toBe(3);
    expect((await sheetRows(file)).slice(1).map((r) => r[1])).toEqual(['乙', '甲']);

    const none = await exported(t, mine.token, '/api/contacts/expsearch?q=nobody');
    expect(none.job).toMatchObject({ rows: 0, total: 0 });
    expect(await sheetRows(none.file)).toHaveLength(1);

    const enUser = await userWithCodes(t, ['A05']);
    await t.db.kysely.updateTable('users').set({ language: 'en' }).where('id', '=', enUser.id).execute();
    const enFile = await exported(t, enUser.token, '/api/contacts/expsearch');
    expect((await sheetRows(enFile.file))[0]!.slice(0, 3)).toEqual(['ID', 'Name', 'Mobile']);
  });

  it('refuses without A05, and bad input', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01', 'A04']);
    expectError(await call(t.app, agent.token, 'GET', '/api/contacts/expsearch'), 'forbidden', 403);
    expectError(await call(t.app, agent.token, 'GET', '/api/contacts/expids?ids=a'), 'forbidden', 403);
    expectError(await call(t.app, t.adminToken, 'GET', '/api/contacts/expids'), 'invalid_field');
    expectError(await call(t.app, t.adminToken, 'GET', '/api/contacts/expsearch?tz=9999'), 'invalid_field');
  });
});
