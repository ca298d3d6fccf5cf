import { Select } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { getLanguageList } from '../../lib/i18n';
import { useUi } from '../ui';

/** The server's language list (GET /api/language/languageList); switching refetches texts. */
export function LanguageSwitch({ testId = 'language-switch' }: { testId?: string }) {
  const { t } = useTranslation();
  const language = useUi((s) => s.language);
  const setLanguage = useUi((s) => s.setLanguage);
  return (
    <Select
      data-testid={testId}
      aria-label={t('shell.language')}
      value={language}
      variant="borderless"
      prefix={<GlobalOutlined />}
      style={{ minWidth: 120 }}
      popupMatchSelectWidth={false}
      onChange={(l: string) => void setLanguage(l)}
      options={getLanguageList().map((l) => ({ value: l.language, label: l.name }))}
    />
  );
}
