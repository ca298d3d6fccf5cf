import { Select, Table, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { QualitySkillCardDto } from '@kefu/protocol';
import { notify } from '../../../lib/notify';
import { qualityApi } from '../api';
import { useCardOptions } from './options';

/** Which card scores each skill group's conversations (none: the default card). */
export function SkillBinding() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const skills = useQuery({
    queryKey: ['quality', 'skillCards'],
    queryFn: ({ signal }) => qualityApi.skillCards(signal),
  });
  const cards = useCardOptions();
  const options = (cards.data ?? []).map((c) => ({ value: c.id, label: c.name }));
  const bind = async (organ: string, typeid: string | null) => {
    await qualityApi.bindSkill(organ, typeid);
    notify.success(t('common.done'));
    await qc.invalidateQueries({ queryKey: ['quality', 'skillCards'] });
  };
  return (
    <>
      <Typography.Paragraph type="secondary">{t('qc.skill.desc')}</Typography.Paragraph>
      <Table<QualitySkillCardDto>
        size="small"
        rowKey="organ"
        data-testid="qc-skills"
        loading={skills.isFetching}
        dataSource={skills.data ?? []}
        pagination={false}
        columns={[
          { title: t('qc.skill.name'), dataIndex: 'name' },
          {
            title: t('qc.skill.card'),
            width: 320,
            render: (_: unknown, row) => (
              <Select
                allowClear
                style={{ width: 280 }}
                placeholder={t('qc.skill.defaultCard')}
                value={row.typeid ?? undefined}
                options={options}
                data-testid={`qc-skill-${row.name}`}
                onChange={(v?: string) => void bind(row.organ, v ?? null).catch(() => undefined)}
              />
            ),
          },
        ]}
      />
    </>
  );
}
