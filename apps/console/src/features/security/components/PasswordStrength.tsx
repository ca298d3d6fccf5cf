import { Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { passwordStrength } from '@kefu/protocol';

const COLORS = ['#ff4d4f', '#ff7a45', '#faad14', '#52c41a', '#389e0d'];

/** A five-step meter of a password's length and variety, with its word. */
export function PasswordStrength({ password }: { password: string }) {
  const { t } = useTranslation();
  const s = passwordStrength(password);
  return (
    <Space size={8} style={{ width: '100%' }} data-testid="password-strength" data-strength={s}>
      <Progress
        percent={password ? ((s + 1) / 5) * 100 : 0}
        steps={5}
        showInfo={false}
        strokeColor={COLORS[s]}
        size={[36, 6]}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('sec.strength')}: {password ? t(`sec.strength.${s}`) : '—'}
      </Typography.Text>
    </Space>
  );
}
