import { createHash, randomBytes } from 'node:crypto';
import {
  CHANNEL_CAPABILITIES,
  CHANNEL_SATIS_THANKS,
  EMPTY_CONTACT_TEXTS,
  PLATFORM_USER_SEP,
  type MsgType,
  type PlatformChannel,
} from '@kefu/protocol';
import { AppError } from '../../platform/http/errors.js';
import type { Db } from '../../platform/db/database.js';
import { newId, newTimeId } from '../../platform/ids.js';
import { saveUpload } from '../media/media.service.js';
import { deliverLive, StaleConversation, storeMessage } from '../conversation/message.service.js';
import { presentMessage, type AgentServiceRow } from '../conversation/presenter.js';
import * as srepo from '../conversation/service.repository.js';
import { requestAgent } from '../conversation/visitor.service.js';
import * as contacts from '../contacts/contacts.repository.js';
import type { AccountRow, AppRow, InboundItem, UserProfile, UserRow } from './adapters/adapter.js';
import * as repo from './channels.repository.js';
import { enqueueNotice } from './outbox.service.js';
import type { ChannelRuntime } from './runtime.js';
import { ADAPTERS } from './runtime.js';
import { autoReplies } from './imr.service.js';
import { failedOnPlatform } from './events.js';
import { visitorSaid } from '../robot/flow.service.js';
import { suggestionPicked } from './numbered-reply.js';
import { ratedByReply } from './satisfaction.js';

/** Placeholder texts of media the platform could not hand over. */
const MEDIA_TEXT: Partial<Record<MsgType, string>> = {
  image: '[图片]',
  voice: '[语音]',
  video: '[视频]',
  file: '[文件]',
  emoticon: '[表情]',
};

/** A stored item to process, and its lane: items of one user are processed one after another. */
export interface Queued {
  id: string;
  lane: string;
}

export const laneOf = (appid: string, item: Pick<InboundItem, 'user'>): string => `${appid}:${item.user}`;

/**
 * Stores received items once each (unique per app and platform message id) in the caller's transaction;
 * returns the ids of the new ones (a repeated push stores nothing).
 */
export async function storeItems(
  rt: ChannelRuntime,
  k: Db['kysely'],
  app: AppRow,
  items: readonly InboundItem[],
): Promise<Queued[]> {
  const now = rt.now();
  const fresh: Queued[] = [];
  for (const item of items) {
    const id = newTimeId(now);
    const key = item.key || `${item.user}:${item.time}:${item.event ?? item.msgtype}`;
    const added = await repo.insertInbound(k, {
      id,
      orgi: app.orgi,
      appid: app.id,
      msgkey: key.slice(0, 200),
      channel: app.channel,
      payload: JSON.stringify(item),
      createtime: now,
      updatetime: now,
    });
    if (added) fresh.push({ id, lane: laneOf(app.id, item) });
    else rt.log.info({ app: app.id, key }, 'channel item repeated: already stored');
  }
  return fresh;
}

/** storeItems on its own, then the new items are processed (after the webhook's answer). */
export async function acceptItems(
  rt: ChannelRuntime,
  app: AppRow,
  items: readonly InboundItem[],
): Promise<number> {
  const fresh = await storeItems(rt, rt.e.db.kysely, app, items);
  if (fresh.length) rt.kickInbound(fresh);
  return fresh.length;
}

/** The engine's visitor id of a platform user: stable per account and user, never a website visitor's. */
export const platformUserId = (channel: PlatformChannel, accountid: string, extuserid: string): string =>
  `${channel}${PLATFORM_USER_SEP}${createHash('sha256').update(`${accountid}\n${extuserid}`).digest('base64url').slice(0, 32)}`;

/**
 * The user as a channel user, a visitor of the engine and a contact identity. A new user with a unionid
 * that another account of the tenant already knows joins that user's contact; otherwise a contact named
 * after the user is created.
 */
async function ensureUser(
  rt: ChannelRuntime,
  app: AppRow,
  account: AccountRow,
  item: InboundItem,
): Promise<UserRow> {
  const k = rt.e.db.kysely;
  const found = await repo.userByExt(k, account.id, item.user);
  if (found) return found;
  const now = rt.now();
  const channel = app.channel as PlatformChannel;
  const id = platformUserId(channel, account.id, item.user);
  const profile = await profileOf(rt, app, item.user);
  const nickname = profile?.nickname || `${account.name}用户${item.user.slice(-4)}`;
  const unionid = item.unionid || profile?.unionid || '';
  await k.transaction().execute(async (trx) => {
    await repo.insertUser(trx, {
      id,
      orgi: app.orgi,
      accountid: account.id,
      channel,
      extuserid: item.user,
      unionid,
      nickname,
      lastin: null,
      createtime: now,
      updatetime: now,
    });
    await trx
      .insertInto('visitor')
      .values({
        id,
        orgi: app.orgi,
        appid: account.id,
        // Never used to log in: platform users have no socket.
        token_hash: createHash('sha256').update(randomBytes(24)).digest('hex'),
        name: nickname,
        channel,
        source: account.name,
        online: 1,
        createtime: now,
        updatetime: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    if ((await contacts.contactIdOf(trx, app.orgi, channel, id)) === null) {
      const twin = unionid ? await repo.userByUnion(trx, app.orgi, unionid, id) : undefined;
      let contactid = twin ? await contacts.contactIdOf(trx, app.orgi, twin.channel, twin.id) : null;
      if (!contactid) {
        contactid = newId();
        await contacts.insertContact(trx, {
          ...EMPTY_CONTACT_TEXTS,
          id: contactid,
          orgi: app.orgi,
          name: nickname,
          owner: null,
          organ: account.organ,
          creater: 'system',
          searchkey: contacts.searchKeyOf({ name: nickname, phone: '', email: '', company: '' }),
          createtime: now,
          updatetime: now,
        });
      }
      await contacts.link(trx, app.orgi, contactid, channel, id, now);
    }
  });
  const user = await repo.findUser(k, id);
  if (!user) throw new Error(`channel user ${id} not stored`);
  return user;
}

/** What the platform tells of a new user (name, unionid); null when it tells nothing or cannot be asked. */
async function profileOf(rt: ChannelRuntime, app: AppRow, extuserid: string): Promise<UserProfile | null> {
  const adapter = ADAPTERS[app.channel as PlatformChannel];
  if (!adapter?.profile) return null;
  try {
    return await adapter.profile(rt, app, extuserid);
  } catch (err) {
    // The user is served without: a name and a contact of their own.
    rt.log.warn({ app: app.id, err: (err as Error).message }, 'channel user profile not fetched');
    return null;
  }
}

/** A file the platform holds, stored as the user's upload; null when it cannot be fetched. */
async function fetchMedia(
  rt: ChannelRuntime,
  app: AppRow,
  user: UserRow,
  item: InboundItem,
): Promise<string | null> {
  const adapter = ADAPTERS[app.channel as PlatformChannel];
  if (!item.media || !adapter?.download) return null;
  try {
    const data = await adapter.download(rt, app, item.media);
    const m = await saveUpload(
      rt.e.db,
      rt.dataDir,
      {
        route: 'file',
        filename: item.media.filename ?? `${item.msgtype}-${item.key.slice(-8)}`,
        data,
        owner: user.id,
        ownerKind: 'visitor',
        orgi: app.orgi,
        ip: '',
      },
      rt.now(),
      // Platform media is bounded by the platform; only the tenant's storage cap applies.
      {
        windowMs: 0,
        visitorFiles: Infinity,
        visitorBytes: Infinity,
        ipFiles: Infinity,
        ipBytes: Infinity,
        tenantBytes: Number(process.env.KEFU_TENANT_STORAGE_MB ?? 10240) * 1024 * 1024,
      },
    );
    return m.id;
  } catch (err) {
    rt.log.warn({ app: app.id, media: item.media, err: (err as Error).message }, 'channel media not fetched');
    return null;
  }
}

/**
 * The user's open conversation, or a new one through the engine's intake (blacklist, working hours,
 * routing by the account's skill group, queue). Null when none can be opened (outside working hours, or
 * blacklisted): the engine's notice already went to the user, and the text is kept as a leave message.
 */
async function conversationOf(
  rt: ChannelRuntime,
  account: AccountRow,
  user: UserRow,
): Promise<AgentServiceRow | null> {
  const k = rt.e.db.kysely;
  const open = await srepo.openServiceOf(k, user.orgi, user.id);
  if (open) return open;
  try {
    // Robot first: intake starts the chat with the account's robot like an access point's (robot_binding sns).
    await requestAgent(
      rt.e,
      { userid: user.id, orgi: user.orgi, appid: account.id },
      { name: user.nickname },
    );
  } catch (err) {
    if (err instanceof AppError && err.code === 403) return null;
    throw err;
  }
  const s = await srepo.openServiceOf(k, user.orgi, user.id);
  if (s)
    await repo.ensureSession(k, {
      agentserviceid: s.id,
      orgi: s.orgi,
      userid: user.id,
      createtime: rt.now(),
    });
  return s ?? null;
}

async function leaveMessage(
  rt: ChannelRuntime,
  account: AccountRow,
  user: UserRow,
  text: string,
): Promise<void> {
  const now = rt.now();
  await rt.e.db.kysely
    .insertInto('leave_message')
    .values({
      id: newId(),
      orgi: user.orgi,
      appid: account.id,
      userid: user.id,
      name: user.nickname,
      content: text.slice(0, 2000),
      status: 'new',
      agentno: null,
      allocator: null,
      allocatetime: null,
      donetime: null,
      createtime: now,
      updatetime: now,
    })
    .execute();
}

/** One user message into the engine: stored once (its inbound id is the client id) and delivered. */
async function intoConversation(
  rt: ChannelRuntime,
  inboundId: string,
  account: AccountRow,
  user: UserRow,
  item: InboundItem,
  attachmentid: string | null,
): Promise<void> {
  const text = item.text || (attachmentid ? '' : (MEDIA_TEXT[item.msgtype] ?? ''));
  const msgtype: MsgType = attachmentid ? item.msgtype : 'text';
  for (let attempt = 0; attempt < 2; attempt++) {
    const s = await conversationOf(rt, account, user);
    if (!s) return leaveMessage(rt, account, user, text);
    await repo.ensureSession(rt.e.db.kysely, {
      agentserviceid: s.id,
      orgi: s.orgi,
      userid: user.id,
      createtime: rt.now(),
    });
    try {
      const stored = await storeMessage(rt.e, {
        service: s,
        sender: user.id,
        username: s.username,
        touser: s.agentno ?? '',
        clientId: `in:${inboundId}`,
        type: 'message',
        msgtype,
        calltype: 'in',
        message: text,
        attachmentid,
        guard: { kind: 'visitor' },
      });
      const dto = presentMessage(stored.row, stored.tokenum);
      if (stored.live) deliverLive(rt.e, s, stored.live, dto);
      // No agent on the chat: the robot may serve it, as for a website visitor (its own turn queue keeps
      // the order; the lane does not wait for the answer). 转人工 in the text hands over.
      if (stored.created && stored.live?.agentno === null) void visitorSaid(rt.e, s.id, dto);
      return;
    } catch (err) {
      // Ended between the lookup and the write: the next round opens a new conversation.
      if (!(err instanceof StaleConversation)) throw err;
    }
  }
}

/** Processes one stored item; its row ends done, ignored (with why) or failed. */
export async function processInbound(rt: ChannelRuntime, inboundId: string): Promise<void> {
  // SQLite answers synchronously, so a unit of work here is one long chain of microtasks: yield to I/O
  // first, so that the webhooks' answers are not held behind a backlog of messages being processed.
  await new Promise((r) => setImmediate(r));
  const k = rt.e.db.kysely;
  const row = await repo.inboundById(k, inboundId);
  if (!row || row.status !== 'new') return;
  const finish = async (status: string, detail = ''): Promise<void> => {
    await repo.setInbound(k, inboundId, status, detail, rt.now());
  };
  try {
    const item = JSON.parse(row.payload) as InboundItem;
    const app = await repo.findApp(k, row.appid);
    if (!app) return await finish('ignored', 'app deleted');
    if (item.kind === 'echo') return await finish('ignored', 'own or servicer message echoed');
    if (item.kind === 'event' && item.event === 'msg_send_fail') {
      await failedOnPlatform(rt, item.eventKey ?? '', item.text);
      return await finish('done');
    }
    const account = await repo.accountByExt(k, app.id, item.account);
    if (!account) {
      rt.log.warn({ app: app.id, account: item.account }, 'channel push for an unknown account');
      return await finish('ignored', `unknown account ${item.account}`);
    }
    if (!item.user) return await finish('ignored', 'no user');
    const user = await ensureUser(rt, app, account, item);
    if (item.kind === 'event') {
      await openedByEvent(rt, user, item);
      const replies = await autoReplies(k, account.id, item);
      // KF: the welcome goes with the enter_session code (once; the user has not written, no window is open).
      const code = item.event === 'enter_session' ? item.eventKey : undefined;
      for (const [i, text] of replies.entries())
        await enqueueNotice(rt, {
          orgi: app.orgi,
          userid: user.id,
          agentserviceid: null,
          text,
          ...(i === 0 && code ? { code } : {}),
        });
      if (replies.length === 0 && !KNOWN_EVENTS.has(item.event ?? '')) {
        rt.log.info({ app: app.id, event: item.event }, 'channel event not handled');
        return await finish('ignored', `event ${item.event ?? ''}`);
      }
      return await finish('done');
    }
    await repo.updateUser(k, user.id, { lastin: item.time || rt.now(), sent: 0, updatetime: rt.now() });
    if (item.convid || item.msgid)
      await repo.updateUser(k, user.id, { convid: item.convid ?? '', lastmsgid: item.msgid ?? '' });
    // A bare number answers the robot's suggestions while it serves the chat with one as its latest line
    // (the number asks that question); otherwise a pending satisfaction invitation (it rates the chat).
    const question = item.msgtype === 'text' ? await suggestionPicked(rt, user, item.text) : null;
    const asked: InboundItem = question ? { ...item, text: question } : item;
    if (item.msgtype === 'text' && !question) {
      // A number answering the text satisfaction invitation rates the chat; an ended chat is not reopened.
      const rated = await ratedByReply(rt, user, item.text);
      if (rated)
        await enqueueNotice(rt, {
          orgi: app.orgi,
          userid: user.id,
          agentserviceid: null,
          text: CHANNEL_SATIS_THANKS,
        });
      if (rated === 'ended') return await finish('done', 'satisfaction');
    }
    const attachmentid = item.msgtype !== 'text' ? await fetchMedia(rt, app, user, item) : null;
    await intoConversation(rt, inboundId, account, user, asked, attachmentid);
    for (const text of await autoReplies(k, account.id, asked))
      await enqueueNotice(rt, { orgi: app.orgi, userid: user.id, agentserviceid: null, text });
    await finish('done');
  } catch (err) {
    rt.log.error({ inbound: inboundId, err }, 'channel message not processed');
    await finish('failed', (err as Error).message);
  }
}

/** Events after which the platform lets the business write a few messages (a follow, a menu click, …). */
// Not WeChat KF's enter_session: send_msg still needs a customer message; its welcome has send_msg_on_event.
const WINDOW_EVENTS = new Set(['subscribe', 'SCAN', 'CLICK', 'user_enter_tempsession']);
/** How many: the official account's 3 (mini-programs say 2; 3 is the larger, the platform refuses beyond). */
const EVENT_SENDS = 3;

/**
 * An event that opens a short window (official account: 3 messages in the minute after a follow, scan or
 * menu click). Kept as the ordinary window with only EVENT_SENDS left, and only when none is open: a
 * user message's window is never shortened by it.
 */
async function openedByEvent(rt: ChannelRuntime, user: UserRow, item: InboundItem): Promise<void> {
  if (!WINDOW_EVENTS.has(item.event ?? '')) return;
  const w = CHANNEL_CAPABILITIES[user.channel as PlatformChannel]?.window;
  if (!w) return;
  const now = rt.now();
  if (user.lastin !== null && now < user.lastin + w.hours * 3_600_000 && user.sent < w.quota) return;
  await repo.updateUser(rt.e.db.kysely, user.id, {
    lastin: item.time || now,
    sent: Math.max(0, w.quota - EVENT_SENDS),
    updatetime: now,
  });
}

/** Events that are understood without an answer. */
const KNOWN_EVENTS = new Set([
  'enter_session',
  'user_enter_tempsession',
  'subscribe',
  'unsubscribe',
  'SCAN',
  'VIEW',
  'CLICK',
  'LOCATION',
  'servicer_status_change',
  'session_status_change',
  'user_recall_msg',
  'im_enter_direct_msg',
]);
