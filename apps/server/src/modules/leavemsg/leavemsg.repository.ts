import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { LeaveMessageTable } from '../../platform/db/schema-channel.js';
import type { LeaveMsgStatus } from '@kefu/protocol';

type Kdb = Db['kysely'];
export type LeaveRow = Selectable<LeaveMessageTable>;

export interface LeaveFilter {
  status?: LeaveMsgStatus;
  q?: string;
  agentno?: string;
}

function filtered(k: Kdb, orgi: string, f: LeaveFilter) {
  let q = k.selectFrom('leave_message').where('leave_message.orgi', '=', orgi);
  if (f.status) q = q.where('leave_message.status', '=', f.status);
  if (f.agentno) q = q.where('leave_message.agentno', '=', f.agentno);
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('leave_message.name', 'like', like),
        eb('leave_message.mobile', 'like', like),
        eb('leave_message.content', 'like', like),
      ]),
    );
  }
  return q;
}

export function page(k: Kdb, orgi: string, f: LeaveFilter, offset: number, limit: number) {
  return filtered(k, orgi, f)
    .leftJoin('users', 'users.id', 'leave_message.agentno')
    .leftJoin('access_point', 'access_point.id', 'leave_message.appid')
    .selectAll('leave_message')
    .select(['users.uname as agentname', 'access_point.name as accessname'])
    .orderBy('leave_message.createtime', 'desc')
    .orderBy('leave_message.id')
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function total(k: Kdb, orgi: string, f: LeaveFilter): Promise<number> {
  const r = await filtered(k, orgi, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export const findLeave = (k: Kdb, orgi: string, id: string): Promise<LeaveRow | undefined> =>
  k.selectFrom('leave_message').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();
