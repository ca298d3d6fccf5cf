import { useState } from 'react';
import { Alert, Button, theme } from 'antd';
import { LoginOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { identityApi } from '../api';

/** One button per configured provider: the server answers the provider's authorization URL, the browser goes there. */
export function ProviderButtons(props: {
  providers: Array<{ id: string; name: string }>;
  divider?: boolean;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (props.providers.length === 0) return null;
  const go = async (id: string) => {
    setBusy(id);
    setError(null);
    try {
      window.location.assign((await identityApi.start(id)).url);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(null);
    }
  };
  return (
    <div data-testid="login-providers">
      {props.divider !== false && (
        // Plain text, not antd's Divider: the login page is the first download.
        <div
          style={{
            textAlign: 'center',
            fontSize: 13,
            color: token.colorTextSecondary,
            margin: '20px 0 12px',
          }}
        >
          {t('login.others')}
        </div>
      )}
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
        {props.providers.map((p) => (
          <Button
            key={p.id}
            block
            icon={<LoginOutlined />}
            loading={busy === p.id}
            data-testid={`login-provider-${p.name}`}
            onClick={() => void go(p.id)}
          >
            {t('login.via', { name: p.name })}
          </Button>
        ))}
      </div>
    </div>
  );
}
