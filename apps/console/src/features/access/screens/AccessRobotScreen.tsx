import { useEffect, useState } from 'react';
import { Alert, Button, Select, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccessPointDto } from '@kefu/protocol';
import { AccessScoped } from '../components/AccessPicker';
import { robotApi } from '../../robot/api';
import { notify } from '../../../lib/notify';

const NONE = '';

function RobotBinding({ ap }: { ap: AccessPointDto }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const robots = useQuery({ queryKey: ['robots'], queryFn: ({ signal }) => robotApi.list(signal) });
  const key = ['webim', 'ai', ap.id];
  const bound = useQuery({ queryKey: key, queryFn: ({ signal }) => robotApi.binding(ap.id, signal) });
  const [choice, setChoice] = useState<string>(NONE);
  const [saving, setSaving] = useState(false);
  useEffect(() => setChoice(bound.data?.robotid ?? NONE), [bound.data]);

  const save = async () => {
    setSaving(true);
    try {
      await robotApi.bind(ap.id, choice || null);
      notify.success(t('common.done'));
      await qc.invalidateQueries({ queryKey: key });
      await qc.invalidateQueries({ queryKey: ['robots'] });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%', maxWidth: 560 }}>
      <Typography.Text type="secondary">{t('robot.desc')}</Typography.Text>
      <Select
        data-testid="access-robot-select"
        loading={robots.isLoading || bound.isLoading}
        value={choice}
        onChange={setChoice}
        style={{ width: '100%' }}
        options={[
          { value: NONE, label: t('access.robotNone') },
          ...(robots.data ?? []).map((r) => ({
            value: r.id,
            label: r.enabled ? r.name : `${r.name} (${t('access.robotDisabled')})`,
          })),
        ]}
      />
      {robots.data && robots.data.length === 0 && <Alert type="info" showIcon message={t('robot.none')} />}
      <Button
        type="primary"
        data-testid="access-robot-save"
        loading={saving}
        disabled={choice === (bound.data?.robotid ?? NONE)}
        onClick={() => void save()}
      >
        {t('common.save')}
      </Button>
    </Space>
  );
}

/** /setup/robot (A09_A01_A01): which robot receives a website's visitors first, chosen by `?appid=`. */
export default function AccessRobotScreen() {
  const { t } = useTranslation();
  return (
    <AccessScoped testid="access-robot-screen" title={t('menu.accessRobot')}>
      {(ap) => <RobotBinding key={ap.id} ap={ap} />}
    </AccessScoped>
  );
}
