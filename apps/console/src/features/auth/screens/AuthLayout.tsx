import type { ReactNode } from 'react';
import { Alert, theme } from 'antd';
import { Link } from 'react-router';
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

/** A centred link under a public page's form (to /register, back to /login). */
export function AuthLink(props: { to: string; testId: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ textAlign: 'center', marginTop: 16 }}>
      <Link
        to={props.to}
        style={{ color: token.colorLink, textDecoration: 'none' }}
        data-testid={props.testId}
      >
        {props.children}
      </Link>
    </div>
  );
}

/** A public page's error above its form (what the server answered). */
export function AuthError(props: { text: string | null; testId: string }) {
  if (!props.text) return null;
  return (
    <Alert type="error" showIcon title={props.text} data-testid={props.testId} style={{ marginBottom: 16 }} />
  );
}
