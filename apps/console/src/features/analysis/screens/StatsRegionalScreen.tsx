import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/regionList (docs/metrics.md). */
export default function StatsRegionalScreen() {
  return <AnalysisScreen call="regionList" share />;
}
