import { useState } from 'react';
import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { SENSITIVE_HITS_CODES } from '@kefu/protocol';
import { useCan } from '../../access/components/useCan';
import { WordList } from '../components/WordList';
import { PiiRulesPanel } from '../components/PiiRulesPanel';
import { HitsPanel } from '../components/HitsPanel';

type Tab = 'agent' | 'user' | 'pii' | 'hits';

/** /setup/sensitiveWords (A09_A03_A06): the agent and visitor lists, the masking rules and the hits. */
export default function SensitiveWordsScreen() {
  const { t } = useTranslation();
  const can = useCan();
  const [tab, setTab] = useState<Tab>('agent');
  const tabs: Tab[] = ['agent', 'user', 'pii', ...(can(SENSITIVE_HITS_CODES) ? (['hits'] as const) : [])];
  const body = (k: Tab) =>
    k === 'pii' ? <PiiRulesPanel /> : k === 'hits' ? <HitsPanel /> : <WordList kind={k} />;
  return (
    <Card size="small" data-testid="sw-screen">
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as Tab)}
        items={tabs.map((k) => ({
          key: k,
          label: <span data-testid={`sw-tab-${k}`}>{t(`sw.tab.${k}`)}</span>,
          children: body(k),
        }))}
        destroyOnHidden
      />
    </Card>
  );
}
