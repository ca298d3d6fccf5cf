import { useTranslation } from 'react-i18next';
import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** Quality figures: the frame of the screen until quality inspection (issue 17) stores results. */
export default function StatsQualityScreen() {
  const { t } = useTranslation();
  return <AnalysisScreen call="quality" notice={t('analysis.qualityPending')} />;
}
