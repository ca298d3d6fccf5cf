import type { NoticeDto } from '@kefu/protocol';
import { i18n } from '../../lib/i18n';

/** The agent's text for a supervisor's (or ring-no-answer's) notice about its chat or its state; else null. */
export function supervisionNotice(n: NoticeDto): string | null {
  switch (n.type) {
    case 'takeover':
      return i18n.t('monitor.notice.takeover', { name: n.message });
    case 'transfer':
      return i18n.t('monitor.notice.transfer');
    case 'ai':
      return i18n.t('monitor.notice.ai');
    case 'ring':
      return i18n.t('monitor.notice.ring');
    case 'ring_notready':
      return i18n.t('monitor.notice.ringNotready', { n: n.message });
    default:
      return null;
  }
}
