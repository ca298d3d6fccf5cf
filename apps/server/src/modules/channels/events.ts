import type { DeliveryError } from '@kefu/protocol';
import { agentRoom, serviceRoom } from '../../platform/realtime/rooms.js';
import type { ChannelRuntime } from './runtime.js';

/** WeChat KF msg_send_fail `fail_type` → why the message failed. */
const FAIL_TYPES: Record<string, DeliveryError> = {
  '4': 'channel_window_closed',
  '5': 'channel_session_invalid',
  '6': 'channel_quota_exhausted',
  '10': 'channel_user_blocked',
  '1': 'channel_config',
  '2': 'channel_config',
};

/**
 * The platform accepted a message and later reported it undelivered (KF msg_send_fail): the message is
 * marked failed and its agents told. `msgid` is our outbox id or one of its parts (`<28 chars>_<n>`).
 */
export async function failedOnPlatform(rt: ChannelRuntime, msgid: string, failType: string): Promise<void> {
  if (!msgid) return;
  const k = rt.e.db.kysely;
  const row = await k
    .selectFrom('channel_outbox')
    .selectAll()
    .where((eb) => (msgid.includes('_') ? eb('id', 'like', `${msgid.slice(0, 28)}%`) : eb('id', '=', msgid)))
    .executeTakeFirst();
  if (!row) return;
  const error = FAIL_TYPES[failType] ?? 'channel_send_failed';
  const detail = `msg_send_fail ${failType}`;
  await k
    .updateTable('channel_outbox')
    .set({ status: 'failed', error, detail, updatetime: rt.now() })
    .where('id', '=', row.id)
    .execute();
  if (!row.messageid || !row.agentserviceid) return;
  const s = await k
    .selectFrom('agent_service')
    .select('agentno')
    .where('id', '=', row.agentserviceid)
    .executeTakeFirst();
  const rooms = [serviceRoom(row.agentserviceid), ...(s?.agentno ? [agentRoom(s.agentno)] : [])];
  rt.e.rt.agents.to(rooms).emit('delivery', {
    id: row.messageid,
    agentserviceid: row.agentserviceid,
    state: 'failed',
    error,
    detail,
  });
}
