/** The parts of a user's name; any may be missing or empty. */
export interface UserNameParts {
  /** The name set on the user screen (姓名). */
  uname?: string | null;
  nickname?: string | null;
  /** The login name. */
  username?: string | null;
}

/**
 * The one rule for showing a user (agent, admin, inspector) to staff: the name set on the user screen,
 * else the nickname, else the login name; '' when none is known. What visitors see of an agent is its
 * nickname first (conversation.routing's agentInfo), a separate, public name.
 */
export const userDisplayName = (u: UserNameParts | null | undefined): string =>
  u?.uname || u?.nickname || u?.username || '';
