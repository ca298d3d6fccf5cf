import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';
import { agentStateLogged, conversationChanged, inviteChanged, visitStarted } from './hooks.js';

/**
 * Varied raw data for the statistics (tests, the e2e run, demos): departments, agents, two access points,
 * visits with Chinese, foreign and private addresses and search-engine referrers, conversations on two
 * channels with queue time, robot lines, system lines, transfers, ratings with opinions and tags, the agent
 * state log across midnights, invitations. Raw rows go in directly; the hooks are called as the real code
 * paths call them, so the rollups are built by the incremental maintenance.
 */
export interface Dataset {
  orgi: string;
  organs: string[];
  agents: Array<{ id: string; organ: string }>;
  appids: string[];
  tags: string[];
  opinions: string[];
  conversations: string[];
  /** Epoch ms: the data lies within [start, start + days). */
  start: number;
  days: number;
}

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const FIXTURE_IPS = [
  '120.24.78.68',
  '202.96.134.133',
  '61.135.169.121',
  '8.8.8.8',
  '127.0.0.1',
  '114.114.114.114',
];
export const FIXTURE_UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.40(0x1800282a) NetType/WIFI Language/zh_CN',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
];
export const FIXTURE_REFERRERS = [
  'https://www.baidu.com/s?wd=%E5%9C%A8%E7%BA%BF%E5%AE%A2%E6%9C%8D',
  'https://www.baidu.com/s?wd=%E4%BB%B7%E6%A0%BC',
  'https://www.google.com/search?q=live+chat',
  'https://cn.bing.com/search?q=kefu',
  'https://www.sogou.com/web?query=%E5%AE%A2%E6%9C%8D',
  'https://news.example.org/article/1',
  '',
];
/** Browser and OS columns of conversations as the visitor row holds them (name + version). */
const CONV_BROWSERS = ['Chrome 126', 'WeChat 8', 'Safari 17', 'Chrome 120', ''];
const CONV_OSES = ['Windows 10', 'iOS 17.0', 'Mac OS 10.15.7', 'Android 13', ''];
const PROVINCES: Array<[string, string, string]> = [
  ['中国', '广东省', '深圳市'],
  ['中国', '北京', '北京市'],
  ['中国', '浙江省', '杭州市'],
  ['美国', '', ''],
  ['', '', ''],
];
const REASONS = ['socket', 'notready', 'disconnect', 'heartbeat', 'supervisor', 'ring'];

/** An agent row with the table's defaults (no password: generated agents do not log in). */
async function insertUserRow(db: Db, orgi: string, organ: string, name: string): Promise<string> {
  const id = newId();
  const now = Date.now();
  await sql`insert into users (id, orgi, username, password_hash, uname, nickname, organ, createtime, updatetime)
    values (${id}, ${orgi}, ${`${name}_${id.slice(0, 6)}`}, '', ${name}, ${name}, ${organ}, ${now}, ${now})`.execute(
    db.kysely,
  );
  return id;
}

export interface DatasetOptions {
  orgi?: string;
  seed?: number;
  conversations?: number;
  visits?: number;
  days?: number;
  /** First instant of the data. */
  start: number;
}

export async function generateDataset(db: Db, o: DatasetOptions): Promise<Dataset> {
  const orgi = o.orgi ?? 'kefu';
  const rand = rng(o.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const days = o.days ?? 30;
  const span = days * 86_400_000;
  const at = () => o.start + Math.floor(rand() * span);
  const k = db.kysely;
  const now = Date.now();

  const organs: string[] = [];
  for (const name of ['售前', '售后', '技术支持']) {
    const id = newId();
    await k
      .insertInto('organ')
      .values({
        id,
        orgi,
        name,
        parentid: organs[0] ?? null,
        skill: 1,
        sortindex: 0,
        createtime: now,
        updatetime: now,
      })
      .execute();
    organs.push(id);
  }
  const agents: Dataset['agents'] = [];
  for (let i = 0; i < 6; i++) {
    const organ = organs[i % organs.length]!;
    agents.push({ id: await insertUserRow(db, orgi, organ, `客服${i + 1}`), organ });
  }
  const appids: string[] = [];
  for (const name of ['官网', '商城']) {
    const id = newId().slice(0, 12);
    await k
      .insertInto('access_point')
      .values({ id, orgi, name, domain: 'example.com', organ: null, createtime: now, updatetime: now })
      .execute();
    appids.push(id);
  }
  const tags: string[] = [];
  for (const name of ['咨询', '投诉', '售后', '建议']) {
    const id = newId();
    await k
      .insertInto('tag')
      .values({
        id,
        orgi,
        name,
        color: '#999',
        tagtype: 'summary',
        creater: 'admin',
        createtime: now,
        updatetime: now,
      })
      .execute();
    tags.push(id);
  }
  const opinions: string[] = [];
  for (const name of ['回复及时', '态度好', '问题已解决']) {
    const id = newId();
    await k
      .insertInto('satis_opinion')
      .values({ id, orgi, name, createtime: now, updatetime: now })
      .execute();
    opinions.push(id);
  }

  // Visits: some traces come back the same day (unique visitors), some on another day.
  const traces = Array.from({ length: Math.max(1, Math.floor((o.visits ?? 200) / 2)) }, () =>
    newId().slice(0, 16),
  );
  const visitTimes = new Map<string, number[]>();
  for (let i = 0; i < (o.visits ?? 200); i++) {
    const traceid = pick(traces);
    const prior = visitTimes.get(traceid);
    const time = prior && rand() < 0.5 ? prior[0]! + Math.floor(rand() * 5 * 3_600_000) : at();
    visitTimes.set(traceid, [...(prior ?? []), time]);
    visitStarted(db, {
      orgi,
      appid: pick(appids),
      traceid,
      ip: pick(FIXTURE_IPS),
      userAgent: pick(FIXTURE_UAS),
      referrer: pick(FIXTURE_REFERRERS),
      time,
    });
  }

  const conversations: string[] = [];
  const ROBOT = 'robot-xiaoe';
  for (let i = 0; i < (o.conversations ?? 200); i++) {
    const id = newId();
    const createtime = at();
    const ai = rand() < 0.1 ? 1 : 0;
    const foragent = ai && rand() < 0.5 ? 1 : 0;
    const served = ai ? foragent === 1 : rand() < 0.85;
    const agent = pick(agents);
    const servicetime = served ? createtime + Math.floor(rand() * 120_000) : null;
    const ended = rand() < 0.93;
    const [country, province, city] = pick(PROVINCES);
    const traceid = rand() < 0.7 ? pick(traces) : '';
    const rated = served && rand() < 0.5;
    const level = rated ? 1 + Math.floor(rand() * 5) : null;
    // Messages: the visitor, robot lines, queue time, replies, system lines.
    const msgs: Array<{ t: number; calltype: string; type: string; sender: string }> = [];
    let t = createtime + 1_000;
    const visitor = `v_${id.slice(0, 8)}`;
    msgs.push({ t, calltype: 'in', type: 'message', sender: visitor });
    if (ai) msgs.push({ t: t + 500, calltype: 'out', type: 'message', sender: ROBOT });
    if (servicetime !== null) {
      t = Math.max(t, servicetime);
      msgs.push({ t: t + 10, calltype: 'system', type: 'system', sender: 'system' });
      const turns = Math.floor(rand() * 6);
      for (let j = 0; j < turns; j++) {
        if (rand() < 0.7) {
          t += 1_000 + Math.floor(rand() * 60_000);
          msgs.push({ t, calltype: 'in', type: 'message', sender: visitor });
        }
        if (rand() < 0.8) {
          t += 1_000 + Math.floor(rand() * 90_000);
          msgs.push({
            t,
            calltype: 'out',
            type: 'message',
            sender: rand() < 0.85 ? agent.id : pick(agents).id,
          });
        }
      }
    }
    const endtime = t + 5_000 + Math.floor(rand() * 60_000);
    await k
      .insertInto('agent_service')
      .values({
        id,
        orgi,
        userid: visitor,
        appid: pick(appids),
        channel: rand() < 0.8 ? 'webim' : 'weixin',
        status: ended ? 'end' : 'inservice',
        organ: served ? agent.organ : pick([...organs, null]),
        agentno: served ? agent.id : null,
        createtime,
        servicetime,
        endtime: ended ? endtime : null,
        waittime: servicetime !== null ? servicetime - createtime : 0,
        trans: served && rand() < 0.15 ? 1 : 0,
        invite: served && rand() < 0.6 ? 1 : 0,
        satisfaction: rated ? 1 : 0,
        satislevel: level === null ? null : String(level),
        satistime: rated ? endtime : null,
        traceid,
        browser: pick(CONV_BROWSERS),
        osname: pick(CONV_OSES),
        country,
        province,
        city,
        ai,
        foragent,
      })
      .execute();
    if (msgs.length)
      await k
        .insertInto('chat_message')
        .values(
          msgs.map((m, seq) => ({
            id: newId(),
            orgi,
            agentserviceid: id,
            seq: seq + 1,
            sender: m.sender,
            client_id: newId(),
            usession: visitor,
            type: m.type,
            msgtype: 'text',
            calltype: m.calltype,
            message: 'x',
            attachmentid: null,
            filename: null,
            filesize: null,
            withdrawn_at: null,
            createtime: m.t,
            tokens: '',
          })),
        )
        .execute();
    if (rated) {
      const picked = opinions.filter(() => rand() < 0.4);
      await k
        .insertInto('satis_rating')
        .values({
          agentserviceid: id,
          orgi,
          userid: visitor,
          agentno: agent.id,
          level: level!,
          levelname: String(level),
          opinions: JSON.stringify(picked.map((p) => ({ id: p, name: p }))),
          createtime: endtime,
          updatetime: endtime,
        })
        .execute();
    }
    const tagged = tags.filter(() => rand() < 0.25);
    if (tagged.length)
      await k
        .insertInto('agent_service_tag')
        .values(
          tagged.map((tagid) => ({
            agentserviceid: id,
            tagid,
            orgi,
            creater: agent.id,
            createtime: endtime,
          })),
        )
        .execute();
    conversations.push(id);
    if (ended) conversationChanged(db, orgi, id);
  }

  // The agent state log: each agent changes state through the days (crossing midnights), ends offline.
  for (const a of agents) {
    let t = o.start + Math.floor(rand() * 3_600_000);
    let from = 'notready';
    while (t < o.start + span) {
      const to = pick(['ready', 'busy', 'notready', 'ready']);
      const reason = to === 'notready' ? pick(REASONS) : 'socket';
      if (to !== from) {
        await k
          .insertInto('agent_state_log')
          .values({ orgi, userid: a.id, from_status: from, to_status: to, reason, createtime: t })
          .execute();
        agentStateLogged(db, { orgi, userid: a.id, to_status: to, reason, createtime: t });
        from = to;
      }
      t += Math.floor(rand() * 5 * 3_600_000);
    }
    if (from !== 'notready') {
      t = o.start + span;
      await k
        .insertInto('agent_state_log')
        .values({
          orgi,
          userid: a.id,
          from_status: from,
          to_status: 'notready',
          reason: 'disconnect',
          createtime: t,
        })
        .execute();
      agentStateLogged(db, {
        orgi,
        userid: a.id,
        to_status: 'notready',
        reason: 'disconnect',
        createtime: t,
      });
    }
  }

  // Invitations, answered or not.
  for (let i = 0; i < 40; i++) {
    const id = newId();
    const createtime = at();
    const result = pick(['pending', 'accept', 'refuse', 'accept']);
    await k
      .insertInto('invite_record')
      .values({
        id,
        orgi,
        appid: pick(appids),
        traceid: pick(traces),
        agentno: pick(agents).id,
        result,
        createtime,
        responsetime: result === 'pending' ? null : createtime + 5_000,
      })
      .execute();
    inviteChanged(db, orgi, id, null);
    if (result !== 'pending') inviteChanged(db, orgi, id, result as 'accept' | 'refuse');
  }
  return { orgi, organs, agents, appids, tags, opinions, conversations, start: o.start, days };
}
