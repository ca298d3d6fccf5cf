import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/aiDegree (docs/metrics.md). */
export default function StatsAiStatisticsScreen() {
  return <AnalysisScreen call="aiDegree" />;
}
