import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/organDegree (docs/metrics.md). */
export default function StatsSectionScreen() {
  return <AnalysisScreen call="organDegree" share />;
}
