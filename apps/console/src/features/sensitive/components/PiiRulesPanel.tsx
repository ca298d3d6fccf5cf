import { useEffect, useState } from 'react';
import { Button, Card, Space, Switch, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PII_RULES, maskPii, type PiiRules } from '@kefu/protocol';
import { PII_QUERY_KEY, sensitiveApi, usePiiRules } from '../api';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';

/** The tenant's personal-data masking switches, with a live preview of their effect. */
export function PiiRulesPanel() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const stored = usePiiRules();
  const [draft, setDraft] = useState<PiiRules>(stored);
  const { saving, run } = useSaving();
  useEffect(() => setDraft(stored), [stored]);
  const save = () =>
    run(async () => {
      qc.setQueryData(PII_QUERY_KEY, await sensitiveApi.savePii(draft));
      notify.success(t('common.done'));
    });
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="sw-pii">
      <Typography.Paragraph type="secondary">{t('sw.pii.desc')}</Typography.Paragraph>
      {PII_RULES.map((rule) => (
        <Space key={rule}>
          <Switch
            checked={draft[rule]}
            onChange={(v) => setDraft({ ...draft, [rule]: v })}
            data-testid={`sw-pii-${rule}`}
          />
          {t(`sw.pii.${rule}`)}
        </Space>
      ))}
      <Card size="small" title={t('sw.pii.preview')}>
        <Typography.Text data-testid="sw-pii-preview">{maskPii(t('sw.pii.sample'), draft)}</Typography.Text>
      </Card>
      <Button type="primary" loading={saving} onClick={() => void save()} data-testid="sw-pii-save">
        {t('common.save')}
      </Button>
    </Space>
  );
}
