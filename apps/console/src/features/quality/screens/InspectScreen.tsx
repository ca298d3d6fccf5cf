import { useState } from 'react';
import { Card, Tabs } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QUALITY_ALLOT_CODE } from '@kefu/protocol';
import { useCan } from '../../access/components/useCan';
import { qualityApi } from '../api';
import { Counts } from '../components/Counts';
import { InspectList } from '../components/InspectList';
import { AppealList } from '../components/AppealList';
import { InspectionDrawer } from '../components/InspectionDrawer';

type Tab = 'list' | 'appeals';

/** /quality/inspect (A11_A01): the inspections to score, the appeals to answer, one inspection at a time. */
export default function InspectScreen() {
  const { t } = useTranslation();
  const can = useCan();
  const qc = useQueryClient();
  const all = can(QUALITY_ALLOT_CODE);
  const [tab, setTab] = useState<Tab>('list');
  const [open, setOpen] = useState<string | null>(null);
  const count = useQuery({
    queryKey: ['quality', 'count'],
    queryFn: ({ signal }) => qualityApi.count(signal),
  });
  const changed = () => {
    void qc.invalidateQueries({ queryKey: ['quality-list'] });
    void qc.invalidateQueries({ queryKey: ['quality-appeals'] });
    void qc.invalidateQueries({ queryKey: ['quality', 'count'] });
  };
  return (
    <Card size="small" data-testid="qc-inspect-screen">
      <Counts
        count={count.data}
        keys={['allotted', 'done', 'sent', 'appealsOpen', ...(all ? (['notAllotted'] as const) : [])]}
      />
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as Tab)}
        destroyOnHidden
        items={[
          {
            key: 'list',
            label: <span data-testid="qc-tab-list">{t('qc.tab.list')}</span>,
            children: <InspectList onOpen={setOpen} all={all} />,
          },
          {
            key: 'appeals',
            label: <span data-testid="qc-tab-appeals">{t('qc.tab.appeals')}</span>,
            children: <AppealList onOpen={setOpen} canBatch={all} />,
          },
        ]}
      />
      <InspectionDrawer id={open} onClose={() => setOpen(null)} onChanged={changed} />
    </Card>
  );
}
