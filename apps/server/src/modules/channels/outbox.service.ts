import { join } from 'node:path';
import {
  CHANNEL_CAPABILITIES,
  DELIVERY_BACKOFF_MS,
  isPlatformChannel,
  richTextPlain,
  type DeliveryError,
  type DeliveryNotice,
  type DeliveryState,
  type MessageDto,
  type MsgType,
} from '@kefu/protocol';
import { newTimeId } from '../../platform/ids.js';
import { agentRoom, serviceRoom } from '../../platform/realtime/rooms.js';
import * as repo from './channels.repository.js';
import type { ChannelRuntime } from './runtime.js';
import { ADAPTERS } from './runtime.js';
import { PlatformError } from './platform-http.js';
import { splitText } from './adapters/wechat-common.js';
import type { OutboundItem } from './adapters/adapter.js';

/** What an outbox row sends. `done`: parts of a long text already sent (a retry resumes after them). */
export interface OutPayload {
  msgtype: MsgType;
  text: string;
  /** Our stored media (chat attachment). */
  mediaid?: string | null;
  done?: number;
  /** A platform event code that allows this one message outside the window (KF welcome_code, 20 s). */
  code?: string;
}

/** A lease long enough for one send with its token refresh and upload. */
const LEASE_MS = 60_000;

/** Chat lines that reach the platform user: everything but the user's own, withdrawn ones and echoes. */
export function goesOut(m: {
  calltype: string;
  type: string;
  clientId?: string;
  client_id?: string;
  withdrawn?: boolean | number;
}): boolean {
  const client = m.clientId ?? m.client_id ?? '';
  return (
    m.calltype !== 'in' &&
    (m.type === 'message' || m.type === 'system' || m.type === 'robot') &&
    !client.startsWith('echo:') &&
    !m.withdrawn
  );
}

/** Queues a chat line (id = the message's id, so however many times it is queued it is sent once). */
export async function enqueueLine(
  rt: ChannelRuntime,
  dto: Pick<
    MessageDto,
    'id' | 'agentserviceid' | 'usession' | 'msgtype' | 'message' | 'attachmentid' | 'createtime'
  > & { orgi: string; type?: string },
): Promise<void> {
  const now = rt.now();
  // A robot answer's rich-text marks (**bold**, [link](url), ![image](url)) as plain text with the addresses.
  const text = dto.type === 'robot' ? richTextPlain(dto.message, { urls: true }) : dto.message;
  const payload: OutPayload = { msgtype: dto.msgtype, text, mediaid: dto.attachmentid };
  const added = await repo.insertOutbox(rt.e.db.kysely, {
    id: dto.id,
    orgi: dto.orgi,
    userid: dto.usession,
    agentserviceid: dto.agentserviceid,
    messageid: dto.id,
    payload: JSON.stringify(payload),
    next_at: now,
    createtime: dto.createtime,
    updatetime: now,
  });
  if (added) rt.kickOutbox();
}

/** Queues a text that is not a chat line (queue place, end, rating prompt, auto-reply). */
export async function enqueueNotice(
  rt: ChannelRuntime,
  n: { orgi: string; userid: string; agentserviceid: string | null; text: string; code?: string },
): Promise<void> {
  if (!n.text.trim()) return;
  const now = rt.now();
  await repo.insertOutbox(rt.e.db.kysely, {
    id: newTimeId(now),
    orgi: n.orgi,
    userid: n.userid,
    agentserviceid: n.agentserviceid,
    messageid: null,
    payload: JSON.stringify({
      msgtype: 'text',
      text: n.text,
      ...(n.code ? { code: n.code } : {}),
    } satisfies OutPayload),
    next_at: now,
    createtime: now,
    updatetime: now,
  });
  rt.kickOutbox();
}

/**
 * Lines committed but never queued (the node stopped between the commit and the queueing): every platform
 * conversation whose last seq is past what was queued gets its missing lines queued.
 */
export async function sweepLagging(rt: ChannelRuntime): Promise<number> {
  const k = rt.e.db.kysely;
  let queued = 0;
  for (const s of await repo.lagging(k, 100)) {
    for (const m of await repo.linesAfter(k, s.agentserviceid, s.outseq, s.lastseq)) {
      if (!goesOut({ ...m, withdrawn: m.withdrawn })) continue;
      await enqueueLine(rt, {
        id: m.id,
        orgi: m.orgi,
        agentserviceid: m.agentserviceid,
        usession: m.usession,
        msgtype: m.msgtype as MsgType,
        message: m.message,
        type: m.type,
        attachmentid: m.attachmentid,
        createtime: m.createtime,
      });
      queued++;
    }
    await repo.advanceSession(k, s.agentserviceid, s.lastseq);
  }
  return queued;
}

function notify(
  rt: ChannelRuntime,
  row: { id: string; messageid: string | null; agentserviceid: string | null },
  state: DeliveryState,
  error: DeliveryError | null,
  detail: string,
  agentno?: string | null,
): void {
  // A notice (no chat line) is reported too, by its outbox id: the composer's quota moved.
  if (!row.agentserviceid) return;
  const notice: DeliveryNotice = {
    id: row.messageid ?? row.id,
    agentserviceid: row.agentserviceid,
    state,
    error,
    detail,
  };
  const rooms = [serviceRoom(row.agentserviceid)];
  if (agentno) rooms.push(agentRoom(agentno));
  rt.e.rt.agents.to(rooms).emit('delivery', notice);
}

type Row = Awaited<ReturnType<typeof repo.dueOutbox>>[number];

/** The window and quota of the user's conversation, checked before the platform is asked. */
function windowError(
  channel: string,
  user: { lastin: number | null; sent: number },
  parts: number,
  now: number,
): DeliveryError | null {
  if (!isPlatformChannel(channel)) return 'channel_config';
  const w = CHANNEL_CAPABILITIES[channel].window;
  if (!w) return null;
  if (user.lastin === null || now > user.lastin + w.hours * 3_600_000) return 'channel_window_closed';
  if (user.sent + parts > w.quota) return 'channel_quota_exhausted';
  return null;
}

/** Sends one claimed row: sent, retried later, or failed for good. */
async function sendRow(rt: ChannelRuntime, row: Row): Promise<void> {
  const k = rt.e.db.kysely;
  const now = rt.now();
  const fail = async (error: DeliveryError, detail: string) => {
    await repo.finishOutbox(k, row.id, {
      status: 'failed',
      error,
      detail: detail.slice(0, 500),
      lease: null,
      updatetime: now,
    });
    rt.log.warn({ outbox: row.id, error, detail }, 'channel send failed');
    notify(rt, row, 'failed', error, detail, await ownerOf(rt, row.agentserviceid));
  };
  const user = await repo.findUser(k, row.userid);
  const account = user ? await repo.findAccount(k, user.accountid) : undefined;
  const app = account ? await repo.findApp(k, account.appid) : undefined;
  const adapter = isPlatformChannel(user?.channel ?? '')
    ? ADAPTERS[user!.channel as keyof typeof ADAPTERS]
    : undefined;
  if (!user || !account || !app || !adapter) return fail('channel_config', 'account or user gone');
  const p = JSON.parse(row.payload) as OutPayload;
  if (!adapter.caps.out.includes(p.msgtype)) return fail('channel_unsupported', p.msgtype);
  const item: OutboundItem = { msgtype: p.msgtype, text: p.text, ...(p.code ? { code: p.code } : {}) };
  if (p.msgtype !== 'text') {
    const media = p.mediaid
      ? await k.selectFrom('media').selectAll().where('id', '=', p.mediaid).executeTakeFirst()
      : undefined;
    if (!media) return fail('channel_unsupported', 'file gone');
    item.file = { path: join(rt.dataDir, media.path), filename: media.filename, mime: media.mime };
  }
  const parts = p.msgtype === 'text' ? splitText(p.text, adapter.caps.maxTextBytes) : [''];
  const done = p.done ?? 0;
  // An event code is the platform's own leave to send (outside the window, beside the quota).
  const closed = p.code ? null : windowError(user.channel, user, parts.length - done, now);
  if (closed) return fail(closed, 'reply window');
  try {
    for (let i = done; i < parts.length; i++) {
      // Our id is the platform's idempotency key: a retry of a part that did go through is not sent twice.
      const msgid = i === 0 ? row.id : `${row.id.slice(0, 28)}_${i}`;
      const platformId = await adapter.send(rt, { app, account, user }, { ...item, text: parts[i]! }, msgid);
      if (!p.code) await repo.updateUser(k, user.id, { sent: user.sent + i - done + 1, updatetime: now });
      await repo.finishOutbox(k, row.id, {
        payload: JSON.stringify({ ...p, done: i + 1 }),
        platform_msgid: platformId,
      });
    }
  } catch (err) {
    const pe =
      err instanceof PlatformError ? err : new PlatformError('transient', 'error', (err as Error).message);
    if (pe.kind === 'permanent') return fail(pe.error, pe.detail);
    const attempts = row.attempts + 1;
    if (attempts > DELIVERY_BACKOFF_MS.length) return fail('channel_send_failed', pe.detail);
    await repo.finishOutbox(k, row.id, {
      status: 'pending',
      attempts,
      next_at: now + DELIVERY_BACKOFF_MS[attempts - 1]!,
      lease: null,
      detail: pe.detail.slice(0, 500),
      updatetime: now,
    });
    rt.log.info({ outbox: row.id, attempts, detail: pe.detail }, 'channel send retried later');
    return;
  }
  await repo.finishOutbox(k, row.id, {
    status: 'sent',
    lease: null,
    error: null,
    detail: '',
    updatetime: rt.now(),
  });
  notify(rt, row, 'sent', null, '', await ownerOf(rt, row.agentserviceid));
}

async function ownerOf(rt: ChannelRuntime, agentserviceid: string | null): Promise<string | null> {
  if (!agentserviceid) return null;
  const s = await rt.e.db.kysely
    .selectFrom('agent_service')
    .select('agentno')
    .where('id', '=', agentserviceid)
    .executeTakeFirst();
  return s?.agentno ?? null;
}

/**
 * One pass over the due rows: per user in order (a row waits while an earlier one of the same user is
 * unsent), users side by side.
 */
export async function drainOutbox(rt: ChannelRuntime): Promise<number> {
  const k = rt.e.db.kysely;
  const now = rt.now();
  const rows = await repo.dueOutbox(k, now, 200);
  const lanes = new Map<string, Row[]>();
  for (const r of rows) {
    const lane = lanes.get(r.userid);
    if (lane) lane.push(r);
    else lanes.set(r.userid, [r]);
  }
  let sent = 0;
  await Promise.all(
    [...lanes.values()].map(async (lane) => {
      for (const r of lane) {
        // An earlier line of the same user still in flight or waiting for its retry goes first.
        if (await repo.earlierPending(k, r.userid, r.createtime, r.id)) return;
        if (!(await repo.claimOutbox(k, r.id, rt.now(), rt.now() + LEASE_MS))) return;
        await sendRow(rt, { ...r, status: 'sending' });
        const after = await k
          .selectFrom('channel_outbox')
          .select('status')
          .where('id', '=', r.id)
          .executeTakeFirst();
        if (after?.status !== 'sent' && after?.status !== 'failed') return;
        sent++;
      }
    }),
  );
  return sent;
}
