import { expect } from 'vitest';
import type { MessageDto, RobotDto, VisitorNewResult } from '@kefu/protocol';
import type { PerTest } from '../../../../test/factories.js';
import {
  addAccessPoint,
  addUserWithCodes,
  api,
  call,
  collect,
  ok,
  until,
  visitorReady,
  type LiveServer,
  type VisitorClient,
} from '../../../../test/live.js';
import { newId } from '../../../platform/ids.js';
import type { TestDb } from '../../../../test/harness.js';

/** A live server with a robot bound to an access point and a small knowledge base. */
export interface RobotScene {
  s: LiveServer;
  /** Holds the robot, knowledge, monitor, working-hours and queue codes. */
  admin: string;
  appid: string;
  robot: RobotDto;
  items: Record<'returns' | 'refund' | 'refundWhere' | 'invoice', string>;
}

export const ADMIN_CODES = [
  'A09_A05_A01',
  'A09_A05_A02',
  'A03',
  'A03_A01',
  'A09_A03_A03',
  'A09_A03_A05',
  'A09_A03_A11',
];

export async function robotScene(
  env: PerTest,
  robot: Record<string, unknown> = {},
  ...live: Parameters<PerTest['live']>
): Promise<RobotScene> {
  const s = await env.live(...live);
  const admin = (await addUserWithCodes(s.tdb, ADMIN_CODES)).token;
  const appid = await addAccessPoint(s.tdb);
  const save = async (question: string, similar: string[], answer: string) => {
    const r = await api<{ id: string }>(s, admin, '/api/xiaoe/knowledge/save', { question, similar, answer });
    expect(r.json.success, JSON.stringify(r.json)).toBe(true);
    return r.json.data.id;
  };
  const items = {
    returns: await save('如何申请退货？', ['怎么退货', '退货流程'], '在“我的订单”中点击**申请售后**。'),
    refund: await save('退款多久到账？', ['退款什么时候到'], '1-3个工作日到账。'),
    refundWhere: await save('退款退到哪里？', ['钱退回哪个账户'], '原路退回。'),
    invoice: await save('如何开发票？', ['能开发票吗'], '在订单详情申请电子发票。'),
  };
  const r = await api<RobotDto>(s, admin, '/api/xiaoe/config/save', {
    name: '小智',
    welcome: '您好，我是小智',
    ...robot,
  });
  expect(r.json.success, JSON.stringify(r.json)).toBe(true);
  expect((await api(s, admin, '/api/webim/ai', { appid, robotid: r.json.data.id })).json.success).toBe(true);
  return { s, admin, appid, robot: r.json.data, items };
}

/** A visitor whose chat started (with the robot), and every line it received. */
export async function robotVisitor(
  sc: RobotScene,
  sockets: PerTest['sockets'],
  extra: Record<string, string> = {},
) {
  const v = await visitorReady(sc.s.url, sc.appid, undefined, extra);
  sockets.push(v.s);
  const lines = collect<MessageDto>(v.s, 'message');
  const writing = collect<unknown>(v.s, 'writing');
  const reads = collect<{ seq: number }>(v.s, 'read');
  const started = ok(await call<VisitorNewResult>(v.s, 'new', {}));
  await until(() => lines.some((m) => m.type === 'robot'));
  return { ...v, lines, writing, reads, started };
}

export const robotLines = (lines: readonly MessageDto[]) => lines.filter((m) => m.type === 'robot');

/** The visitor says something; resolves with the robot's reply to it (or undefined when none came). */
export async function say(
  v: { s: VisitorClient; lines: MessageDto[] },
  text: string,
  expectReply = true,
): Promise<MessageDto | undefined> {
  const before = robotLines(v.lines).length;
  ok(await call<MessageDto>(v.s, 'message', { clientId: newId(), message: text, msgtype: 'text' }));
  if (!expectReply) {
    await new Promise((r) => setTimeout(r, 400));
    expect(robotLines(v.lines).length).toBe(before);
    return undefined;
  }
  await until(() => robotLines(v.lines).length > before);
  return robotLines(v.lines)[before];
}

/** A robot bound to an access point, stored directly (tests of other modules that need one to exist). */
export async function bindRobot(tdb: TestDb, appid: string): Promise<string> {
  const id = newId();
  const now = Date.now();
  const k = tdb.db.kysely;
  await k
    .insertInto('robot')
    .values({
      id,
      orgi: 'kefu',
      name: `robot_${id.slice(0, 6)}`,
      answer_score: 450,
      suggest_score: 250,
      createtime: now,
      updatetime: now,
    })
    .execute();
  await k
    .insertInto('robot_binding')
    .values({ channel: 'webim', target: appid, orgi: 'kefu', robotid: id, createtime: now })
    .execute();
  return id;
}
