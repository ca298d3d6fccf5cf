import { CardPanel } from '../components/CardPanel';
import { SkillBinding } from '../components/SkillBinding';
import { SettingsForm } from '../components/SettingsForm';
import { TabbedCard } from '../components/TabbedCard';

/** /setup/qualityLabel (A09_A03_A12): scorecards and their items, skill-group cards, quality settings. */
export default function QualityLabelScreen() {
  return (
    <TabbedCard
      testId="qc-label-screen"
      tabs={[
        ['cards', () => <CardPanel />],
        ['skills', () => <SkillBinding />],
        ['settings', () => <SettingsForm />],
      ]}
    />
  );
}
