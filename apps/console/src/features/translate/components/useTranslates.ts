import { translationApplies } from '@kefu/protocol';
import { useSession } from '../../../app/session';

/**
 * Which lines of a chat get a translation under them (the spec's rule, shared with the server): the
 * visitor's language `visitorLang` ('' when the chat is not this agent's own: a watched or joined chat is
 * the monitor's view), the agent's saved language and the session flag msgtranslate.
 */
export function useTranslates(
  visitorLang: string | undefined,
): (m: { calltype: string; type: string; msgtype: string; withdrawn?: boolean }) => boolean {
  const msgtranslate = useSession((s) => s.sessionConfig?.msgtranslate ?? false);
  const agentLang = useSession((s) => s.info?.user.language ?? 'zh');
  return (m) =>
    !m.withdrawn &&
    translationApplies(m, { visitorLang: visitorLang ?? '', agentLang, msgtranslate, monitor: !visitorLang });
}
