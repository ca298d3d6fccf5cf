import { useEffect, useMemo, type ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n';
import { useUi } from './ui';

/**
 * Entry-level providers only: theme, locale, texts. The antd App context and react-query live in
 * the (lazy) shell, so the login page does not download them.
 */
export function Providers({ children }: { children: ReactNode }) {
  const themeColor = useUi((s) => s.themeColor);
  const language = useUi((s) => s.language);
  const en = language.startsWith('en');
  useEffect(() => {
    dayjs.locale(en ? 'en' : 'zh-cn');
  }, [en]);
  const theme = useMemo(() => ({ token: { colorPrimary: themeColor, colorLink: themeColor } }), [themeColor]);
  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider theme={theme} locale={en ? enUS : zhCN}>
        {children}
      </ConfigProvider>
    </I18nextProvider>
  );
}
