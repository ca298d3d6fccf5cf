import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/userDegree (docs/metrics.md). */
export default function StatsCustomerServiceScreen() {
  return <AnalysisScreen call="userDegree" share />;
}
