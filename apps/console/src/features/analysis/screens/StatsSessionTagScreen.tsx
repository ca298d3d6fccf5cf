import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/labelList (docs/metrics.md). */
export default function StatsSessionTagScreen() {
  return <AnalysisScreen call="labelList" share />;
}
