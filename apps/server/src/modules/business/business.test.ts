import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BusinessEncryptionDto, BusinessLinkDto, BusinessSystemDto, CrmLinkDto } from '@kefu/protocol';
import { call, count, expectError, perTest, userWithCodes, type SeededApp } from '../../../test/factories.js';
import { seedConversation } from '../history/history.fixtures.js';

const env = perTest();

const post = <T>(t: SeededApp, url: string, body: Record<string, unknown>, token = t.adminToken) =>
  call<T>(t.app, token, 'POST', url, body);
const get = <T>(t: SeededApp, url: string, token = t.adminToken) => call<T>(t.app, token, 'GET', url);

/** What a partner does with a link: recompute the signature over the kefu_* parameters with its key. */
function verify(url: string, key: string): boolean {
  const u = new URL(url);
  const params = [...u.searchParams.entries()].filter(([k]) => k.startsWith('kefu_') && k !== 'kefu_sign');
  const canonical = params
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return createHmac('sha256', key).update(canonical).digest('hex') === u.searchParams.get('kefu_sign');
}

async function crm(t: SeededApp) {
  const saved = await post<BusinessSystemDto>(t, '/api/business/save', {
    name: 'CRM',
    url: 'https://crm.example.com/customer/{visitorid}?conv={conversationid}&rec={crmid}',
    ticketurl: 'https://crm.example.com/tickets?who={agent}',
    opentype: 'tab',
  });
  const key = (await get<BusinessEncryptionDto>(t, `/api/business/encryption?id=${saved.body.data.id}`)).body
    .data;
  return { sys: saved.body.data, key };
}

describe('business systems (A09_A06_A03)', () => {
  it('save, list, update, delete; names unique; bad URLs refused; the key is read (and rotated) through encryption', async () => {
    const t = await env.seeded();
    const { sys, key } = await crm(t);
    expect(sys).toMatchObject({ name: 'CRM', opentype: 'tab', enabled: true });
    expect(key).toMatchObject({ id: sys.id, mode: 'hmac-sha256' });
    expect(key.key).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(sys)).not.toContain(key.key);
    expectError(
      await post(t, '/api/business/save', { name: 'CRM', url: 'https://x.example.com' }),
      'name_repeat',
    );
    for (const url of ['javascript:alert(1)', 'ftp://x', ''])
      expect((await post(t, '/api/business/save', { name: 'X', url })).body.success, url).toBe(false);
    const upd = await post<BusinessSystemDto>(t, '/api/business/save', {
      id: sys.id,
      name: 'CRM 2',
      url: sys.url,
      enabled: false,
    });
    expect(upd.body.data).toMatchObject({ name: 'CRM 2', enabled: false, ticketurl: sys.ticketurl });
    const rotated = await get<BusinessEncryptionDto>(t, `/api/business/encryption?id=${sys.id}&rotate=1`);
    expect(rotated.body.data.key).not.toBe(key.key);
    expect((await get<BusinessSystemDto[]>(t, '/api/business/list')).body.data).toHaveLength(1);
    await post(t, '/api/business/delete', { id: sys.id });
    expect(await count(t.db, 'business_system')).toBe(0);
    expectError(await post(t, '/api/business/delete', { id: sys.id }), 'not_found', 404);
    const audit = await get<{ total: number }>(t, '/api/records/list?action=business.encryption');
    expect(audit.body.data.total).toBe(2);
  });

  it('opened from a conversation: placeholders filled, signed with the system key; a partner can verify it', async () => {
    const t = await env.seeded();
    const { sys, key } = await crm(t);
    const agent = await userWithCodes(t, ['A01']);
    const sid = await seedConversation(t, { agentno: agent.id, status: 'inservice', userid: 'visitor-42' });
    const links = await get<BusinessLinkDto[]>(t, `/api/business/links?agentserviceid=${sid}`, agent.token);
    const link = links.body.data[0]!;
    expect(link).toMatchObject({ id: sys.id, name: 'CRM', opentype: 'tab' });
    const u = new URL(link.url);
    expect(u.pathname).toBe('/customer/visitor-42');
    expect(u.searchParams.get('conv')).toBe(sid);
    expect(u.searchParams.get('kefu_agent')).toBe(agent.username);
    expect(Math.abs(Number(u.searchParams.get('kefu_ts')) - Date.now() / 1000)).toBeLessThan(60);
    expect(verify(link.url, key.key)).toBe(true);
    // Tampering breaks it; so does the old key after a rotation.
    expect(verify(link.url.replace('visitor-42', 'visitor-43'), key.key)).toBe(true);
    expect(verify(link.url.replace('kefu_visitor=visitor-42', 'kefu_visitor=visitor-43'), key.key)).toBe(
      false,
    );
    const rotated = (await get<BusinessEncryptionDto>(t, `/api/business/encryption?id=${sys.id}&rotate=true`))
      .body.data;
    const again = (await get<BusinessLinkDto[]>(t, `/api/business/links?agentserviceid=${sid}`, agent.token))
      .body.data[0]!;
    expect(verify(again.url, key.key)).toBe(false);
    expect(verify(again.url, rotated.key)).toBe(true);
    // Another agent's conversation: not theirs to open.
    const other = await userWithCodes(t, ['A01']);
    expectError(
      await get(t, `/api/business/links?agentserviceid=${sid}`, other.token),
      'not_conversation_owner',
      403,
    );
  });

  it('CRM: addCrm links the visitor to a record, viewCrm and viewTicket answer its signed URLs, quietly when none', async () => {
    const t = await env.seeded();
    const { sys, key } = await crm(t);
    const sid = await seedConversation(t, { agentno: 'someone', status: 'inservice', userid: 'visitor-7' });
    const base = `/api/${sys.id}/customservice`;
    const none = await get(t, `${base}/viewCrm?agentserviceid=${sid}`);
    expect(none).toMatchObject({ status: 200, body: { success: false, code: 10702, key: 'crm_not_linked' } });
    const added = await post<CrmLinkDto>(t, `${base}/addCrm`, { agentserviceid: sid, crmid: 'C-1001' });
    expect(added.body.data).toMatchObject({ userid: 'visitor-7', crmid: 'C-1001' });
    const viewed = await get<CrmLinkDto>(t, `${base}/viewCrm?agentserviceid=${sid}`);
    expect(new URL(viewed.body.data.url).searchParams.get('rec')).toBe('C-1001');
    expect(new URL(viewed.body.data.url).searchParams.get('kefu_crmid')).toBe('C-1001');
    expect(verify(viewed.body.data.url, key.key)).toBe(true);
    const ticket = await get<{ url: string }>(t, `${base}/viewTicket?agentserviceid=${sid}`);
    expect(new URL(ticket.body.data.url).searchParams.get('who')).toBe('admin');
    expect(verify(ticket.body.data.url, key.key)).toBe(true);
    // Re-linking replaces the record.
    await post(t, `${base}/addCrm`, { agentserviceid: sid, crmid: 'C-2002' });
    expect((await get<CrmLinkDto>(t, `${base}/viewCrm?agentserviceid=${sid}`)).body.data.crmid).toBe(
      'C-2002',
    );
    expectError(await get(t, `/api/unknown/customservice/viewCrm?agentserviceid=${sid}`), 'not_found', 404);
    expectError(await post(t, `${base}/addCrm`, { agentserviceid: sid, crmid: '' }), 'required');
  });

  it('refusals: management needs A09_A06_A03, opening and CRM need A01', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01']);
    const noChat = await userWithCodes(t, ['A09_A06_A03']);
    for (const [m, url] of [
      ['GET', '/api/business/list'],
      ['POST', '/api/business/save'],
      ['POST', '/api/business/delete'],
      ['GET', '/api/business/encryption?id=x'],
    ] as const)
      expect(
        (await call(t.app, agent.token, m, url, m === 'POST' ? { id: 'x' } : undefined)).status,
        url,
      ).toBe(403);
    for (const url of [
      '/api/business/links?agentserviceid=x',
      '/api/x/customservice/viewCrm?agentserviceid=x',
    ])
      expect((await get(t, url, noChat.token)).status, url).toBe(403);
    expect(await count(t.db, 'business_system')).toBe(0);
  });
});
