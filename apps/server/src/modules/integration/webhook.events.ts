import type { WebhookEvent } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Engine } from '../conversation/engine.js';
import { listenChanges, type ConversationEvent } from '../conversation/changes.js';
import { orgSettings } from '../../platform/settings/org-settings.js';
import { readWebhook, webhooks, WEBHOOK_SETTING } from './webhook.service.js';

/** Queues a webhook event without holding up the caller (a failure to queue is logged). */
export function webhookEvent(db: Db, orgi: string, event: WebhookEvent, data: unknown): void {
  webhooks(db)
    .emit(orgi, event, data)
    .catch((err: unknown) => console.error('webhook event not queued', event, err));
}

const CONVERSATION: Record<ConversationEvent, WebhookEvent> = {
  created: 'conversation.created',
  assigned: 'conversation.assigned',
  ended: 'conversation.ended',
};

/**
 * Conversation and message events for webhooks, from the conversation module's change hooks. Messages:
 * the chat path pays one size check while no tenant sends message webhooks (the set of tenants that do
 * is kept from their settings and follows every change of them, on every node).
 */
export async function watchForWebhooks(e: Engine): Promise<void> {
  const db = e.db;
  const messageTenants = new Set<string>();
  // Events of this node are queued in the order the chat produced them (created before assigned…).
  let chain: Promise<unknown> = Promise.resolve();
  const inOrder = (task: () => Promise<unknown>) => {
    chain = chain.then(task).catch(() => undefined);
  };
  const orgiOf = new Map<string, string>();
  const refresh = async (orgi: string) => {
    const cfg = (await orgSettings(db).get(orgi, WEBHOOK_SETTING, readWebhook)).value;
    if (cfg.enabled && cfg.url && cfg.events.includes('message.created')) messageTenants.add(orgi);
    else messageTenants.delete(orgi);
  };
  const all = async () => {
    const rows = await db.kysely
      .selectFrom('org_setting')
      .select('orgi')
      .where('name', '=', WEBHOOK_SETTING)
      .execute();
    for (const r of rows) await refresh(r.orgi);
  };
  orgSettings(db).onChange((c) => {
    if (!c) void all().catch(() => undefined);
    else if (c.name === WEBHOOK_SETTING) void refresh(c.orgi).catch(() => undefined);
  });
  await all();

  const conversationData = async (id: string) =>
    db.kysely
      .selectFrom('agent_service')
      .select([
        'id as agentserviceid',
        'userid',
        'username',
        'agentno',
        'status',
        'channel',
        'appid',
        'createtime',
        'endtime',
        'endby',
      ])
      .where('id', '=', id)
      .executeTakeFirst();

  listenChanges(e, {
    chat: () => undefined,
    agent: () => undefined,
    conversation(orgi, event, id) {
      inOrder(async () => {
        const data = await conversationData(id);
        if (data) await webhooks(db).emit(orgi, CONVERSATION[event], data);
      });
    },
    message(dto) {
      if (messageTenants.size === 0 || dto.type !== 'message') return;
      inOrder(async () => {
        let orgi = orgiOf.get(dto.agentserviceid);
        if (!orgi) {
          const r = await db.kysely
            .selectFrom('agent_service')
            .select('orgi')
            .where('id', '=', dto.agentserviceid)
            .executeTakeFirst();
          if (!r) return;
          orgi = r.orgi;
          if (orgiOf.size > 10_000) orgiOf.clear();
          orgiOf.set(dto.agentserviceid, orgi);
        }
        if (messageTenants.has(orgi)) await webhooks(db).emit(orgi, 'message.created', dto);
      });
    },
  });
}
