import { createHash } from 'node:crypto';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';

/** Test fixtures of the visitor channel: a visitor with a known credential and a conversation. */
export async function insertVisitor(
  db: Db,
  appid: string,
  opts: { ip?: string; token?: string } = {},
): Promise<{ userid: string; token: string }> {
  const userid = newId();
  const token = opts.token ?? newId();
  const now = Date.now();
  await db.kysely
    .insertInto('visitor')
    .values({
      id: userid,
      orgi: 'kefu',
      appid,
      token_hash: createHash('sha256').update(token).digest('hex'),
      ip: opts.ip ?? '10.0.0.1',
      createtime: now,
      updatetime: now,
    })
    .execute();
  return { userid, token };
}

export async function insertConversation(
  db: Db,
  appid: string,
  userid: string,
  status: 'inqueue' | 'inservice' | 'end' = 'end',
): Promise<string> {
  const id = newId();
  await db.kysely
    .insertInto('agent_service')
    .values({ id, orgi: 'kefu', userid, appid, status, createtime: Date.now() })
    .execute();
  return id;
}
