import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QUALITY_ALLOT_CODE } from '@kefu/protocol';
import { useCan } from '../../access/components/useCan';
import { qualityApi } from '../api';
import { Counts } from '../components/Counts';
import { InspectList } from '../components/InspectList';
import { AppealList } from '../components/AppealList';
import { InspectionDrawer } from '../components/InspectionDrawer';
import { TabbedCard } from '../components/TabbedCard';

/** /quality/inspect (A11_A01): the inspections to score, the appeals to answer, one inspection at a time. */
export default function InspectScreen() {
  const can = useCan();
  const qc = useQueryClient();
  const all = can(QUALITY_ALLOT_CODE);
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
    <TabbedCard
      testId="qc-inspect-screen"
      before={
        <Counts
          count={count.data}
          keys={['allotted', 'done', 'sent', 'appealsOpen', ...(all ? (['notAllotted'] as const) : [])]}
        />
      }
      tabs={[
        ['list', () => <InspectList onOpen={setOpen} all={all} />],
        ['appeals', () => <AppealList onOpen={setOpen} canBatch={all} />],
      ]}
      after={<InspectionDrawer id={open} onClose={() => setOpen(null)} onChanged={changed} />}
    />
  );
}
