import { NotAllotPanel } from '../components/NotAllotPanel';
import { AllotPanel } from '../components/AllotPanel';
import { AutomationPanel } from '../components/AutomationPanel';
import { TabbedCard } from '../components/TabbedCard';

/** /quality/distribution (A11_A02): conversations to allot, allotted inspections, the automatic rule. */
export default function DistributionScreen() {
  return (
    <TabbedCard
      testId="qc-distribution-screen"
      tabs={[
        ['notAllot', () => <NotAllotPanel />],
        ['allot', () => <AllotPanel />],
        ['auto', () => <AutomationPanel />],
      ]}
    />
  );
}
