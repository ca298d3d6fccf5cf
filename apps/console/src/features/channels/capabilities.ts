import { CHANNEL_CAPABILITIES, channelOfUser, type MsgType } from '@kefu/protocol';

/** What the composer may send to a chat's user: its platform's kinds, or undefined (a web chat: all). */
export function sendableKinds(userid: string): readonly MsgType[] | undefined {
  const c = channelOfUser(userid);
  return c ? CHANNEL_CAPABILITIES[c].out : undefined;
}
