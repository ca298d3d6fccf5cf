import type { MessageDto } from '@kefu/protocol';
import { i18n } from '../../lib/i18n';
import { lastmsgSummary, messageSummary, type MediaLabels } from './model/messages';

export const mediaLabels = (): MediaLabels => ({
  image: i18n.t('dialogue.media.image'),
  file: i18n.t('dialogue.media.file'),
  voice: i18n.t('dialogue.media.voice'),
  video: i18n.t('dialogue.media.video'),
  emoticon: i18n.t('dialogue.media.emoticon'),
});

/** The chat-list line of a message: text, or a placeholder for media. */
export const summaryOf = (m: Pick<MessageDto, 'msgtype' | 'message' | 'withdrawn'>): string =>
  messageSummary(m, mediaLabels(), i18n.t('dialogue.withdrawnShort'));

export const lastmsgOf = (lastmsg: string): string => lastmsgSummary(lastmsg, mediaLabels());
