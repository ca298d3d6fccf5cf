import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/dereeList (docs/metrics.md). */
export default function StatsSatisfactionScreen() {
  return <AnalysisScreen call="dereeList" share />;
}
