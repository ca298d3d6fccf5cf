import { useState } from 'react';
import { Button, ColorPicker, Tooltip } from 'antd';
import { BgColorsOutlined } from '@ant-design/icons';
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

/** The theme colour: a labelled button (icon, name, current colour) that opens the picker. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const themeColor = useUi((s) => s.themeColor);
  const setThemeColor = useUi((s) => s.setThemeColor);
  // The hint is for the closed button; over the open picker it would hide the colours.
  const [picking, setPicking] = useState(false);
  return (
    <ColorPicker
      value={themeColor}
      onOpenChange={setPicking}
      disabledAlpha
      presets={[{ label: t('shell.theme'), colors: PRESETS }]}
      onChangeComplete={(c) => setThemeColor(c.toHexString().toUpperCase())}
    >
      <Tooltip title={t('shell.themeHint')} open={picking ? false : undefined}>
        <Button type="text" size="small" data-testid="theme-switch" aria-label={t('shell.theme')}>
          <BgColorsOutlined />
          <span>{t('shell.theme')}</span>
          <span
            aria-hidden
            style={{
              width: 12,
              height: 12,
              borderRadius: 3,
              background: themeColor,
              display: 'inline-block',
              border: '1px solid rgba(0,0,0,0.1)',
            }}
          />
        </Button>
      </Tooltip>
    </ColorPicker>
  );
}
