import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/browserData (docs/metrics.md). */
export default function StatsBrowserScreen() {
  return <AnalysisScreen call="browserData" share />;
}
