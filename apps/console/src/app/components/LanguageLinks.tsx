import { Button } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { getLanguageList } from '../../lib/i18n';
import { useUi } from '../ui';

/** Login-page language switch: plain buttons, so the first page does not load antd's Select. */
export function LanguageLinks() {
  const { t } = useTranslation();
  const language = useUi((s) => s.language);
  const setLanguage = useUi((s) => s.setLanguage);
  return (
    <div
      role="group"
      aria-label={t('shell.language')}
      data-testid="login-language"
      style={{ display: 'flex', alignItems: 'center', gap: 4 }}
    >
      <GlobalOutlined style={{ color: '#8c8c8c' }} />
      {getLanguageList().map((l) => (
        <Button
          key={l.language}
          size="small"
          type={l.language === language ? 'link' : 'text'}
          style={{ fontWeight: l.language === language ? 600 : 400 }}
          aria-pressed={l.language === language}
          data-testid={`login-language-${l.language}`}
          onClick={() => void setLanguage(l.language)}
        >
          {l.name}
        </Button>
      ))}
    </div>
  );
}
