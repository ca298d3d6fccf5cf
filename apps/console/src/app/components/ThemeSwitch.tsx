import { ColorPicker, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { THEME_COLOR_DEFAULT, THEME_COLOR_FALLBACK } from '@kefu/protocol';
import { useUi } from '../ui';

const PRESETS = [
  THEME_COLOR_DEFAULT,
  THEME_COLOR_FALLBACK,
  '#13C2C2',
  '#52C41A',
  '#FA8C16',
  '#EB2F96',
  '#722ED1',
];

export function ThemeSwitch() {
  const { t } = useTranslation();
  const themeColor = useUi((s) => s.themeColor);
  const setThemeColor = useUi((s) => s.setThemeColor);
  return (
    <Tooltip title={t('shell.theme')}>
      <span data-testid="theme-switch" aria-label={t('shell.theme')}>
        <ColorPicker
          size="small"
          value={themeColor}
          disabledAlpha
          presets={[{ label: t('shell.theme'), colors: PRESETS }]}
          onChangeComplete={(c) => setThemeColor(c.toHexString().toUpperCase())}
        />
      </span>
    </Tooltip>
  );
}
