import { describe, expect, it } from 'vitest';
import type { ContactDto, Page, TagDto } from '@kefu/protocol';
import { call, count, perTest, userWithCodes } from '../../../test/factories.js';
import { upload } from '../media/media-fixtures.js';
import { sheet as sheetOf, XLSX_MIME as XLSX } from '../../../test/exports.js';

const env = perTest();

const sheet = (rows: unknown[][]) => sheetOf(rows, '联系人');

const importAs = (token: string, data: Buffer, filename = 'contacts.xlsx') =>
  upload(env.t, '/api/contacts/import', { authorization: token }, filename, XLSX, data);

describe('POST /api/contacts/import (.xlsx)', () => {
  it('creates and updates from either language’s headers; tags and owner by name; dates as dates', async () => {
    const t = await env.seeded();
    const vip = (
      await call<TagDto>(t.app, t.adminToken, 'POST', '/api/tag/save', { name: 'VIP', tagtype: 'user' })
    ).body.data;
    const agent = await userWithCodes(t, ['A05']);
    const existing = (
      await call<ContactDto>(t.app, t.adminToken, 'POST', '/api/contacts/save', {
        name: '旧名',
        phone: '13800138000',
      })
    ).body.data;
    const zh = await sheet([
      ['编号', '姓名', '手机', '邮箱', '性别', '生日', '标签', '负责人', '备注', '不认识的列'],
      [
        existing.id,
        '新名',
        '13800138000',
        '',
        '女',
        new Date(Date.UTC(1990, 1, 28)),
        'VIP',
        agent.username,
        '更新',
        'x',
      ],
      ['', '赵六', 13900139000, 'Zhao@X.cn', '男', '1985-07-01', '', '', '', ''],
      [],
    ]);
    const r = await importAs(t.adminToken, zh);
    expect(r.json, JSON.stringify(r.json)).toMatchObject({ success: true, data: { created: 1, updated: 1 } });
    const list = (await call<Page<ContactDto>>(t.app, t.adminToken, 'GET', '/api/contacts/index')).body.data
      .list;
    expect(list.map((c) => c.name)).toEqual(['赵六', '新名']);
    expect(list[1]).toMatchObject({
      id: existing.id,
      gender: 'female',
      birthday: '1990-02-28',
      owner: agent.id,
      memo: '更新',
      tags: [{ id: vip.id }],
    });
    expect(list[0]).toMatchObject({ phone: '13900139000', email: 'zhao@x.cn', gender: 'male' });

    const en = await sheet([
      ['Name', 'Mobile', 'Gender'],
      ['Tom', '13700137000', 'Male'],
    ]);
    expect((await importAs(t.adminToken, en)).json).toMatchObject({ data: { created: 1, updated: 0 } });
    expect(await count(t.db, 'contact')).toBe(3);
  });

  it('any bad row: nothing is stored and every bad row is reported (row.column → key)', async () => {
    const t = await env.seeded();
    const before = (
      await call<ContactDto>(t.app, t.adminToken, 'POST', '/api/contacts/save', {
        name: '甲',
        phone: '13800138000',
      })
    ).body.data;
    const bad = await sheet([
      ['编号', '姓名', '手机', '邮箱', '标签', '负责人'],
      [before.id, '甲改', '', '', '', ''],
      ['', '好的一行', '13600136000', '', '', ''],
      ['', '', '13500135000', '', '', ''],
      ['', '坏手机', '123', '', '', ''],
      ['', '坏邮箱', '', 'a@b', '', ''],
      ['', '重复', '13600136000', '', '', ''],
      ['', '撞库', '', '', '', ''],
      ['', '未知标签', '', '', '没有这个', ''],
      ['', '未知负责人', '', '', '', 'ghost'],
      ['no-such-id', '未知编号', '', '', '', ''],
    ]);
    const r = await importAs(t.adminToken, bad);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ success: false, key: 'import_rows_invalid' });
    expect((r.json as { fields?: Record<string, string> }).fields).toEqual({
      '4.name': 'required',
      '5.phone': 'phone_format',
      '6.email': 'email_format',
      '7.phone': 'mobile_email_exists',
      '9.tags': 'invalid_field',
      '10.owner': 'invalid_field',
      '11._': 'not_found',
    });
    expect(await count(t.db, 'contact')).toBe(1);
    const still = await call<{ contact: ContactDto }>(
      t.app,
      t.adminToken,
      'GET',
      `/api/contacts/view?id=${before.id}`,
    );
    expect(still.body.data.contact.name).toBe('甲');
    expect(await count(t.db, 'contact_identity')).toBe(1);
  });

  it('refuses what is not a contacts sheet, and callers without A05', async () => {
    const t = await env.seeded();
    const r1 = await importAs(t.adminToken, Buffer.from('name,phone\n张三,13800138000\n'), 'contacts.csv');
    expect(r1.json).toMatchObject({ success: false, key: 'import_file_invalid' });
    const r2 = await importAs(
      t.adminToken,
      await sheet([
        ['foo', 'bar'],
        ['1', '2'],
      ]),
    );
    expect(r2.json).toMatchObject({ success: false, key: 'import_file_invalid' });
    const r3 = await importAs(t.adminToken, await sheet([['姓名']]));
    expect(r3.json).toMatchObject({ success: false, key: 'import_file_invalid' });
    const noFile = await t.app.inject({
      method: 'POST',
      url: '/api/contacts/import',
      headers: { authorization: t.adminToken, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(noFile.json()).toMatchObject({ success: false, key: 'file_required' });
    const agent = await userWithCodes(t, ['A01']);
    const r4 = await importAs(agent.token, await sheet([['姓名'], ['张三']]));
    expect(r4.json).toMatchObject({ success: false, key: 'forbidden', code: 403 });
    expect(await count(t.db, 'contact')).toBe(0);
  });
});
