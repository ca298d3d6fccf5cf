import { useState } from 'react';
import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { NotAllotPanel } from '../components/NotAllotPanel';
import { AllotPanel } from '../components/AllotPanel';
import { AutomationPanel } from '../components/AutomationPanel';

type Tab = 'notAllot' | 'allot' | 'auto';
const TABS: Tab[] = ['notAllot', 'allot', 'auto'];

/** /quality/distribution (A11_A02): conversations to allot, allotted inspections, the automatic rule. */
export default function DistributionScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('notAllot');
  const body = (k: Tab) =>
    k === 'notAllot' ? <NotAllotPanel /> : k === 'allot' ? <AllotPanel /> : <AutomationPanel />;
  return (
    <Card size="small" data-testid="qc-distribution-screen">
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as Tab)}
        destroyOnHidden
        items={TABS.map((k) => ({
          key: k,
          label: <span data-testid={`qc-tab-${k}`}>{t(`qc.tab.${k}`)}</span>,
          children: body(k),
        }))}
      />
    </Card>
  );
}
