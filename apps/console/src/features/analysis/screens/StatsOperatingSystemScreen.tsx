import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/osnameData (docs/metrics.md). */
export default function StatsOperatingSystemScreen() {
  return <AnalysisScreen call="osnameData" share />;
}
