import type { ReactNode } from 'react';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** Save and restore-defaults buttons at the foot of a settings form (`extra`: e.g. its other languages). */
export function SectionActions(props: { testid: string; onReset: () => void; extra?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Space>
      <Button type="primary" htmlType="submit" data-testid={`${props.testid}-save`}>
        {t('common.save')}
      </Button>
      <Button data-testid={`${props.testid}-reset`} onClick={props.onReset}>
        {t('access.reset')}
      </Button>
      {props.extra}
    </Space>
  );
}

/** A colour field: the native picker beside the #RRGGBB text. */
export function ColorInput(props: { value?: string; onChange?: (v: string) => void; testid?: string }) {
  const v = props.value ?? '#000000';
  return (
    <Space.Compact>
      <input
        type="color"
        aria-label="colour"
        value={/^#[0-9a-f]{6}$/i.test(v) ? v : '#000000'}
        onChange={(e) => props.onChange?.(e.target.value.toUpperCase())}
        style={{
          width: 40,
          height: 32,
          padding: 2,
          border: '1px solid #d9d9d9',
          borderRadius: 6,
          background: '#fff',
        }}
      />
      <input
        data-testid={props.testid}
        value={v}
        maxLength={7}
        onChange={(e) => props.onChange?.(e.target.value)}
        className="ant-input"
        style={{ width: 110, fontFamily: 'monospace' }}
      />
    </Space.Compact>
  );
}

export const colorRule = (message: string) => ({ pattern: /^#[0-9A-Fa-f]{6}$/, message });
export const urlRule = (message: string) => ({
  validator: (_: unknown, v: string | undefined) =>
    !v || /^https?:\/\/[^\s"'<>]+$/i.test(v) || /^\/(?!\/)[^\s"'<>]*$/.test(v)
      ? Promise.resolve()
      : Promise.reject(new Error(message)),
});
