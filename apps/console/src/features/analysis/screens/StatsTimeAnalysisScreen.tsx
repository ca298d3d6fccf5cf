import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/visitor (docs/metrics.md). */
export default function StatsTimeAnalysisScreen() {
  return <AnalysisScreen call="visitor" />;
}
