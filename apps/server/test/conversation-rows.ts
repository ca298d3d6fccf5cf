import type { Db } from '../src/platform/db/database.js';
import { newId } from '../src/platform/ids.js';

export interface ConversationRowInput {
  agentno: string;
  userid?: string;
  username?: string;
  status?: 'inservice' | 'end';
  channel?: string;
  name?: string;
  phone?: string;
  email?: string;
  createtime?: number;
}

/**
 * A conversation stored directly (visitor, agent_service, agent_user), for tests of the calls that read
 * conversations without a live chat: the chat panel's data, contacts' timelines, tags and summaries.
 */
export async function insertConversation(
  db: Db,
  input: ConversationRowInput,
): Promise<{ agentserviceid: string; agentuserid: string; userid: string }> {
  const k = db.kysely;
  const userid = input.userid ?? newId();
  const t0 = input.createtime ?? Date.now();
  const username = input.username ?? `Guest_${userid.slice(0, 6)}`;
  const status = input.status ?? 'inservice';
  const known = await k.selectFrom('visitor').select('id').where('id', '=', userid).executeTakeFirst();
  if (!known)
    await k
      .insertInto('visitor')
      .values({ id: userid, orgi: 'kefu', appid: 'app', token_hash: '', createtime: t0, updatetime: t0 })
      .execute();
  const agentserviceid = newId();
  await k
    .insertInto('agent_service')
    .values({
      id: agentserviceid,
      orgi: 'kefu',
      userid,
      username,
      appid: 'app',
      channel: input.channel ?? 'webim',
      status,
      agentno: input.agentno,
      createtime: t0,
      servicetime: t0,
      endtime: status === 'end' ? t0 + 1000 : null,
      name: input.name ?? '',
      phone: input.phone ?? '',
      email: input.email ?? '',
    })
    .execute();
  const agentuserid = newId();
  await k
    .insertInto('agent_user')
    .values({
      id: agentuserid,
      orgi: 'kefu',
      agentserviceid,
      userid,
      username,
      agentno: input.agentno,
      status,
      createtime: t0,
      updatetime: t0,
    })
    .execute();
  return { agentserviceid, agentuserid, userid };
}
