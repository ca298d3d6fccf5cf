import { QUALITY_API as A, type QualityLabelDto, type QualityLabelTypeDto } from '@kefu/protocol';
import { expect } from 'vitest';
import { call, userWithCodes, type SeededApp } from '../../../test/factories.js';
import { seedConversation } from '../history/history.fixtures.js';

/** A tenant for the quality tests: a card with a deduct, a fatal and a bonus item, people with their codes. */
export interface QualityWorld {
  t: SeededApp;
  card: QualityLabelTypeDto;
  polite: QualityLabelDto;
  fatal: QualityLabelDto;
  bonus: QualityLabelDto;
  inspector: Awaited<ReturnType<typeof userWithCodes>>;
  inspector2: Awaited<ReturnType<typeof userWithCodes>>;
  assigner: Awaited<ReturnType<typeof userWithCodes>>;
  agent: Awaited<ReturnType<typeof userWithCodes>>;
  agent2: Awaited<ReturnType<typeof userWithCodes>>;
}

export const req = async <T>(t: SeededApp, token: string, url: string, body?: Record<string, unknown>) =>
  call<T>(t.app, token, body ? 'POST' : 'GET', url, body);

export const okData = <T>(r: { body: { success: boolean; data: T } }): T => {
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true });
  return r.body.data;
};

export async function qualityWorld(t: SeededApp): Promise<QualityWorld> {
  const admin = (url: string, body?: Record<string, unknown>) => req(t, t.adminToken, url, body);
  const card = okData(
    await admin(A.labelTypeSave, { name: '标准评分表', base: 100, passmark: 80 }),
  ) as QualityLabelTypeDto;
  const label = async (b: Record<string, unknown>) =>
    okData(await admin(A.labelSave, { typeid: card.id, ...b })) as QualityLabelDto;
  const polite = await label({ groupname: '服务态度', name: '用语不礼貌', kind: 'deduct', points: 10 });
  const fatal = await label({
    groupname: '红线',
    name: '泄露客户信息',
    kind: 'deduct',
    points: 20,
    fatal: true,
  });
  const bonus = await label({ groupname: '加分', name: '主动推荐', kind: 'add', points: 5 });
  return {
    t,
    card,
    polite,
    fatal,
    bonus,
    inspector: await userWithCodes(t, ['A11', 'A11_A01']),
    inspector2: await userWithCodes(t, ['A11', 'A11_A01']),
    assigner: await userWithCodes(t, ['A11', 'A11_A02']),
    agent: await userWithCodes(t, ['A01', 'A11', 'A11_A03']),
    agent2: await userWithCodes(t, ['A01', 'A11', 'A11_A03']),
  };
}

/** An ended conversation served by `agentno`, with a visitor question and an agent answer. */
export const endedChat = (
  t: SeededApp,
  agentno: string,
  extra: Parameters<typeof seedConversation>[1] = {},
) =>
  seedConversation(t, {
    agentno,
    messages: [
      '你好，我想问一下订单',
      { text: '您好，请稍等', calltype: 'out' },
      { text: '好的，再见', calltype: 'out' },
    ],
    ...extra,
  });
