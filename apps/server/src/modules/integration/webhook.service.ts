import {
  WEBHOOK_CONFIG_DEFAULT,
  WEBHOOK_EVENTS,
  WEBHOOK_MAX_ATTEMPTS,
  webhookBackoffMs,
  type WebhookConfig,
  type WebhookDeliveryDto,
  type WebhookEvent,
  type WebhookStatus,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { newTimeId } from '../../platform/ids.js';
import { orgSettings } from '../../platform/settings/org-settings.js';
import { signKey, signature } from './key.service.js';

/** org_setting name of the tenant's webhook settings. */
export const WEBHOOK_SETTING = 'webhook';
/** A delivery being sent is leased for this long (another node does not send it meanwhile). */
const LEASE_MS = 60_000;
const TIMEOUT_MS = 10_000;
const BATCH = 20;

export function readWebhook(raw: unknown): WebhookConfig {
  const v = (raw ?? {}) as Partial<WebhookConfig>;
  const events = Array.isArray(v.events)
    ? v.events.filter((e): e is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(e))
    : WEBHOOK_CONFIG_DEFAULT.events;
  return { enabled: v.enabled === true, url: typeof v.url === 'string' ? v.url : '', events };
}

export const webhookConfig = async (db: Db, orgi: string): Promise<WebhookConfig> =>
  (await orgSettings(db).get(orgi, WEBHOOK_SETTING, readWebhook)).value;

export const presentDelivery = (r: {
  id: string;
  event: string;
  url: string;
  status: string;
  attempts: number;
  nextattempt: number;
  lastcode: number | null;
  lasterror: string;
  createtime: number;
  updatetime: number;
}): WebhookDeliveryDto => ({
  id: r.id,
  event: r.event as WebhookDeliveryDto['event'],
  url: r.url,
  status: r.status as WebhookStatus,
  attempts: Number(r.attempts),
  nextattempt: r.status === 'pending' ? Number(r.nextattempt) : null,
  lastcode: r.lastcode === null ? null : Number(r.lastcode),
  lasterror: r.lasterror,
  createtime: Number(r.createtime),
  updatetime: Number(r.updatetime),
});

/**
 * Outgoing webhooks: an event becomes a delivery row (the delivery log) and is POSTed by the dispatcher,
 * signed with the tenant's key; a failure (non-2xx, timeout, refused) is retried with back-off until
 * WEBHOOK_MAX_ATTEMPTS. Any node may send a due delivery: it leases it first, so only one does.
 */
export class Webhooks {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Queues an event when the tenant sends webhooks and subscribed to it; returns the delivery id. */
  async emit(orgi: string, event: WebhookEvent | 'webhook.test', data: unknown): Promise<string | null> {
    const cfg = await webhookConfig(this.db, orgi);
    if (!cfg.url || (event !== 'webhook.test' && (!cfg.enabled || !cfg.events.includes(event)))) return null;
    const now = this.now();
    const id = newTimeId(now);
    const payload = JSON.stringify({ id, event, orgi, time: now, data });
    await this.db.kysely
      .insertInto('webhook_delivery')
      .values({
        id,
        orgi,
        event,
        url: cfg.url,
        payload,
        status: 'pending',
        attempts: 0,
        nextattempt: now,
        lastcode: null,
        lasterror: '',
        createtime: now,
        updatetime: now,
      })
      .execute();
    this.kick();
    return id;
  }

  /** Sends whatever is due soon (called after an emit, and every few seconds). */
  kick(delay = 0): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, delay);
    this.timer.unref();
  }

  /** One pass over the due deliveries (tests await it). */
  run(): Promise<void> {
    if (!this.running)
      this.running = this.pass().finally(() => {
        this.running = null;
      });
    return this.running;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async pass(): Promise<void> {
    const k = this.db.kysely;
    const now = this.now();
    const due = await k
      .selectFrom('webhook_delivery')
      .selectAll()
      .where('status', '=', 'pending')
      .where('nextattempt', '<=', now)
      .orderBy('nextattempt')
      .limit(BATCH)
      .execute();
    await Promise.all(
      due.map(async (d) => {
        const leased = await k
          .updateTable('webhook_delivery')
          .set({ nextattempt: now + LEASE_MS })
          .where('id', '=', d.id)
          .where('status', '=', 'pending')
          .where('nextattempt', '=', d.nextattempt)
          .executeTakeFirst();
        if (Number(leased.numUpdatedRows) !== 1) return;
        await this.send(d);
      }),
    );
  }

  private async send(d: {
    id: string;
    orgi: string;
    event: string;
    url: string;
    payload: string;
    attempts: number;
  }) {
    const k = this.db.kysely;
    const attempts = Number(d.attempts) + 1;
    let code: number | null = null;
    let error = '';
    const key = await signKey(k, d.orgi);
    if (!key) error = 'secret_not_set';
    else {
      const ts = String(Math.floor(this.now() / 1000));
      try {
        const res = await fetch(d.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'kefu-webhook',
            'x-kefu-event': d.event,
            'x-kefu-delivery': d.id,
            'x-kefu-timestamp': ts,
            'x-kefu-signature': signature(key, ts, d.payload),
          },
          body: d.payload,
          redirect: 'manual',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        code = res.status;
        await res.body?.cancel().catch(() => undefined);
        if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
      } catch (err) {
        error = err instanceof Error ? (err.name === 'TimeoutError' ? 'timeout' : err.message) : String(err);
      }
    }
    const now = this.now();
    const done = error === '';
    const giveUp = !done && (attempts >= WEBHOOK_MAX_ATTEMPTS || error === 'secret_not_set');
    await k
      .updateTable('webhook_delivery')
      .set({
        status: done ? 'success' : giveUp ? 'failed' : 'pending',
        attempts,
        nextattempt: done || giveUp ? now : now + webhookBackoffMs(attempts),
        lastcode: code,
        lasterror: error.slice(0, 500),
        updatetime: now,
      })
      .where('id', '=', d.id)
      .execute();
  }
}

const instances = new WeakMap<Db, Webhooks>();

/** The webhook dispatcher of a database handle (one per node). */
export function webhooks(db: Db): Webhooks {
  let w = instances.get(db);
  if (!w) instances.set(db, (w = new Webhooks(db)));
  return w;
}
