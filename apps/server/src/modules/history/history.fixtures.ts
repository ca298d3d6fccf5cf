import type { Insertable } from 'kysely';
import type { TestDb } from '../../../test/harness.js';
import type { AgentServiceTable, ChatMessageTable } from '../../platform/db/schema-conversations.js';
import { newId, newTimeId } from '../../platform/ids.js';
import { tokensOf } from '../../platform/search/tokens.js';

/**
 * Ended conversations written straight into the tables for the history tests, messages with the search
 * words the app stores (tokensOf), so the index triggers (SQLite) / GIN index (PostgreSQL) see them as they
 * see live messages. One test in history.test.ts goes through the real chat path instead.
 */
export interface SeedConversation extends Partial<Insertable<AgentServiceTable>> {
  /** `after`: the message's time after the conversation's start (default 10 s + 1 s per message). */
  messages?: Array<
    string | { text: string; calltype?: string; withdrawn?: boolean; msgtype?: string; after?: number }
  >;
  tags?: string[];
}

export async function seedConversation(t: TestDb, c: SeedConversation = {}): Promise<string> {
  const { messages = [], tags = [], ...over } = c;
  const id = over.id ?? newTimeId();
  const createtime = over.createtime ?? Date.now() - 3_600_000;
  const userid = over.userid ?? newId();
  await t.db.kysely
    .insertInto('agent_service')
    .values({
      orgi: 'kefu',
      userid,
      username: 'Guest',
      appid: 'app',
      channel: 'webim',
      status: 'end',
      servicetime: createtime + 5_000,
      endtime: createtime + 65_000,
      waittime: 5_000,
      endby: 'agent',
      lastseq: messages.length,
      ...over,
      id,
      createtime,
    })
    .execute();
  const rows: Array<Insertable<ChatMessageTable>> = messages.map((m, i) => {
    const msg = typeof m === 'string' ? { text: m } : m;
    const at = createtime + (msg.after ?? 10_000 + i * 1000);
    const msgtype = msg.msgtype ?? 'text';
    return {
      id: newTimeId(at),
      orgi: 'kefu',
      agentserviceid: id,
      seq: i + 1,
      sender: msg.calltype === 'out' ? (over.agentno ?? 'agent') : userid,
      client_id: newId(),
      username: msg.calltype === 'out' ? 'Agent' : 'Guest',
      usession: userid,
      type: 'message',
      msgtype,
      calltype: msg.calltype ?? 'in',
      message: msg.text,
      attachmentid: null,
      filename: null,
      filesize: null,
      withdrawn: 0,
      withdrawn_at: null,
      readstatus: 1,
      createtime: at,
      tokens: tokensOf(msgtype === 'text' ? msg.text : ''),
    };
  });
  if (rows.length) await t.db.kysely.insertInto('chat_message').values(rows).execute();
  for (const [i, m] of messages.entries())
    if (typeof m !== 'string' && m.withdrawn)
      await t.db.kysely
        .updateTable('chat_message')
        .set({ withdrawn: 1, withdrawn_at: Date.now() })
        .where('agentserviceid', '=', id)
        .where('seq', '=', i + 1)
        .execute();
  if (tags.length)
    await t.db.kysely
      .insertInto('agent_service_tag')
      .values(
        tags.map((tagid) => ({
          agentserviceid: id,
          tagid,
          orgi: 'kefu',
          creater: 'x',
          createtime: createtime,
        })),
      )
      .execute();
  return id;
}

export async function seedTag(t: TestDb, name: string, tagtype = 'summary'): Promise<string> {
  const id = newId();
  const now = Date.now();
  await t.db.kysely
    .insertInto('tag')
    .values({
      id,
      orgi: 'kefu',
      name,
      color: '#2C68FF',
      tagtype,
      creater: 'x',
      createtime: now,
      updatetime: now,
    })
    .execute();
  return id;
}

export async function seedTopic(t: TestDb, name: string): Promise<string> {
  const id = newId();
  const now = Date.now();
  await t.db.kysely
    .insertInto('service_topic')
    .values({ id, orgi: 'kefu', name, parentid: '', creater: 'x', createtime: now, updatetime: now })
    .execute();
  return id;
}

/** A contact linked to a web visitor id. */
export async function seedContact(t: TestDb, visitor: string, name = 'C'): Promise<string> {
  const id = newId();
  const now = Date.now();
  const blank = {
    phone: '',
    email: '',
    company: '',
    gender: '',
    region: '',
    address: '',
    birthday: '',
    memo: '',
  };
  await t.db.kysely
    .insertInto('contact')
    .values({
      id,
      orgi: 'kefu',
      name,
      ...blank,
      owner: null,
      organ: null,
      creater: 'x',
      searchkey: name,
      createtime: now,
      updatetime: now,
    })
    .execute();
  await t.db.kysely
    .insertInto('contact_identity')
    .values({ orgi: 'kefu', kind: 'webim', value: visitor, contactid: id, createtime: now })
    .execute();
  return id;
}
