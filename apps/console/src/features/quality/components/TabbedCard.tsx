import { useState, type ReactNode } from 'react';
import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';

/** A screen of tabs in a card: each tab's label is `qc.tab.<key>`, its body mounted while shown. */
export function TabbedCard<K extends string>(props: {
  testId: string;
  tabs: ReadonlyArray<readonly [K, () => ReactNode]>;
  before?: ReactNode;
  after?: ReactNode;
}) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<K>(props.tabs[0]![0]);
  return (
    <Card size="small" data-testid={props.testId}>
      {props.before}
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as K)}
        destroyOnHidden
        items={props.tabs.map(([k, body]) => ({
          key: k,
          label: <span data-testid={`qc-tab-${k}`}>{t(`qc.tab.${k}`)}</span>,
          children: body(),
        }))}
      />
      {props.after}
    </Card>
  );
}
