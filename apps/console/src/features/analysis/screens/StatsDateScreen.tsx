import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/dateCount (docs/metrics.md). */
export default function StatsDateScreen() {
  return <AnalysisScreen call="dateCount" />;
}
