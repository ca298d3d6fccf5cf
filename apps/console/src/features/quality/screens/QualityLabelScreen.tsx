import { useState } from 'react';
import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { CardPanel } from '../components/CardPanel';
import { SkillBinding } from '../components/SkillBinding';
import { SettingsForm } from '../components/SettingsForm';

type Tab = 'cards' | 'skills' | 'settings';
const TABS: Tab[] = ['cards', 'skills', 'settings'];

/** /setup/qualityLabel (A09_A03_A12): scorecards and their items, skill-group cards, quality settings. */
export default function QualityLabelScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('cards');
  const body = (k: Tab) =>
    k === 'cards' ? <CardPanel /> : k === 'skills' ? <SkillBinding /> : <SettingsForm />;
  return (
    <Card size="small" data-testid="qc-label-screen">
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
