import { Select, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DISTRIBUTIONS, SKILL_LASTAGENT, type SkillPolicyDto } from '@kefu/protocol';
import { skillApi } from '../api';
import { notify } from '../../../lib/notify';

/** The selected skill group's own routing policy (imAgent skill/save), over the tenant's assignment rules. */
export function SkillPolicy({ organid }: { organid: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = ['skillPolicy', organid];
  const q = useQuery({ queryKey: key, queryFn: ({ signal }) => skillApi.policy(organid, signal) });
  const save = async (patch: Partial<SkillPolicyDto>) => {
    if (!q.data) return;
    try {
      qc.setQueryData(key, await skillApi.save({ ...q.data, ...patch }));
      notify.success(t('common.done'));
    } catch {
      // toasted by the request layer
    }
  };
  const inherit = { value: 'inherit', label: t('skill.inherit') };
  return (
    <Space direction="vertical" size={4} style={{ width: '100%', marginTop: 12 }} data-testid="skill-policy">
      <Typography.Text type="secondary">{t('skill.policy')}</Typography.Text>
      <Typography.Text style={{ fontSize: 12 }}>{t('sc.distribution')}</Typography.Text>
      <Select
        size="small"
        style={{ width: '100%' }}
        loading={q.isLoading}
        value={q.data?.distribution}
        onChange={(distribution) => void save({ distribution })}
        data-testid="skill-distribution"
        options={[inherit, ...DISTRIBUTIONS.map((d) => ({ value: d, label: t(`sc.distribution.${d}`) }))]}
      />
      <Typography.Text style={{ fontSize: 12 }}>{t('sc.lastagent')}</Typography.Text>
      <Select
        size="small"
        style={{ width: '100%' }}
        loading={q.isLoading}
        value={q.data?.lastagent}
        onChange={(lastagent) => void save({ lastagent })}
        data-testid="skill-lastagent"
        options={SKILL_LASTAGENT.map((v) =>
          v === 'inherit' ? inherit : { value: v, label: t(`skill.lastagent.${v}`) },
        )}
      />
    </Space>
  );
}
