import type { ChatState } from '../chat/client.js';
import type { WidgetConfig } from '../lib/config.js';
import { t } from '../lib/i18n.js';
import { Logo } from './Logo.js';

interface Props {
  config: WidgetConfig;
  title: string;
  state: ChatState;
  onClose?: () => void;
  onEnd?: () => void;
  onRate?: () => void;
}

export function Header({ config, title, state, onClose, onEnd, onRate }: Props) {
  const sub =
    state.status === 'inservice' && state.agent
      ? t('assigned', { agent: state.agent.nickname })
      : state.status === 'inqueue' && state.position
        ? t('queueShort', { position: state.position })
        : state.status === 'end'
          ? t('ended')
          : '';
  return (
    <header class="kf-header">
      <Logo src={config.dialogue.logo} />
      <div class="kf-titles">
        <div class="kf-title">{title}</div>
        {sub && (
          <div class="kf-sub" data-testid="header-sub">
            {sub}
          </div>
        )}
      </div>
      <div class="kf-header-actions">
        {onRate && (
          <button type="button" class="kf-hbtn" onClick={onRate}>
            {t('rate')}
          </button>
        )}
        {onEnd && (
          <button type="button" class="kf-hbtn" onClick={() => confirm(t('confirmEnd')) && onEnd()}>
            {t('endChat')}
          </button>
        )}
        {onClose && (
          <button type="button" class="kf-hbtn kf-x" aria-label={t('close')} onClick={onClose}>
            ×
          </button>
        )}
      </div>
    </header>
  );
}
