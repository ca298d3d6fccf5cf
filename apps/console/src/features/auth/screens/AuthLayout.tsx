import type { ReactNode } from 'react';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { LanguageLinks } from '../../../app/components/LanguageLinks';

/** Centered panel with the product name and a language switch, shared by the public pages. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        background: `linear-gradient(160deg, ${token.colorPrimaryBg} 0%, #f5f6f8 60%)`,
        position: 'relative',
        padding: 16,
      }}
    >
      <div style={{ position: 'absolute', top: 16, right: 24 }}>
        <LanguageLinks />
      </div>
      <div style={{ fontSize: 26, fontWeight: 600, color: token.colorPrimary, marginBottom: 4 }}>
        {t('app.title')}
      </div>
      <div style={{ color: token.colorTextSecondary, marginBottom: 24 }}>{t('login.subtitle')}</div>
      <section
        style={{
          width: 380,
          maxWidth: '100%',
          background: token.colorBgContainer,
          borderRadius: token.borderRadiusLG,
          boxShadow: token.boxShadowTertiary,
          padding: '20px 24px 24px',
        }}
      >
        <h1 style={{ fontSize: 18, fontWeight: 600, margin: '0 0 16px' }}>{title}</h1>
        {children}
      </section>
    </div>
  );
}
