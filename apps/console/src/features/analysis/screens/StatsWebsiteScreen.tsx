import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/snsidCount (docs/metrics.md). */
export default function StatsWebsiteScreen() {
  return <AnalysisScreen call="snsidCount" share />;
}
