import { Button, Popover, Radio, Select, Space, Tooltip, Typography } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { QUICK_KEYS, SEND_KEYS } from '@kefu/protocol';
import { useShortcuts } from '../api';

/** The composer's keyboard settings: which key sends, which opens the canned replies. */
export function ShortcutsButton() {
  const { t } = useTranslation();
  const keys = useShortcuts();
  return (
    <Popover
      trigger="click"
      title={t('qf.shortcuts')}
      content={
        <Space direction="vertical" data-testid="shortcuts-panel">
          <Typography.Text type="secondary">{t('qf.sendKey')}</Typography.Text>
          <Radio.Group
            value={keys.send}
            onChange={(e) => void keys.save({ send: e.target.value })}
            options={SEND_KEYS.map((k) => ({ value: k, label: t(`qf.sendKey.${k}`) }))}
            data-testid="shortcuts-send"
          />
          <Typography.Text type="secondary">{t('qf.quickKey')}</Typography.Text>
          <Select
            value={keys.quick}
            style={{ width: 160 }}
            onChange={(v) => void keys.save({ quick: v })}
            options={QUICK_KEYS.map((k) => ({ value: k, label: k === 'none' ? '—' : k }))}
          />
        </Space>
      }
    >
      <Tooltip title={t('qf.shortcuts')}>
        <Button
          type="text"
          icon={<SettingOutlined />}
          aria-label={t('qf.shortcuts')}
          data-testid="shortcuts-btn"
        />
      </Tooltip>
    </Popover>
  );
}
