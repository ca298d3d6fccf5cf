import {
  CHANNEL_CAPABILITIES,
  channelOfUser,
  type ChannelWindowDto,
  type DeliveryError,
  type DeliveryState,
} from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest } from '../../platform/http/errors.js';
import { followed } from '../conversation/talk.service.js';
import * as repo from './channels.repository.js';
import type { ChannelRuntime } from './runtime.js';

/** What the composer of a conversation the caller follows shows about its platform. */
export async function windowOf(
  rt: ChannelRuntime,
  p: Principal,
  agentserviceid: string,
): Promise<ChannelWindowDto> {
  const s = await followed(rt.e, p, agentserviceid);
  const channel = channelOfUser(s.userid);
  if (!channel) throw badRequest('channel_not_platform');
  const k = rt.e.db.kysely;
  const user = await repo.findUser(k, s.userid);
  const caps = CHANNEL_CAPABILITIES[channel];
  const w = caps.window;
  const closes = w && user?.lastin ? user.lastin + w.hours * 3_600_000 : null;
  const open = closes !== null && rt.now() < closes;
  return {
    channel,
    capabilities: caps,
    closes,
    remaining: w ? (open ? Math.max(0, w.quota - (user?.sent ?? 0)) : 0) : null,
    deliveries: (await repo.deliveriesOf(k, s.id)).map((d) => ({
      id: d.messageid ?? '',
      state: (d.status === 'failed' ? 'failed' : 'pending') as DeliveryState,
      error: (d.error as DeliveryError | null) ?? null,
      detail: d.detail,
    })),
  };
}
