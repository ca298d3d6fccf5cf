import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/searcheEngine (docs/metrics.md). */
export default function StatsSearchEngineScreen() {
  return <AnalysisScreen call="searcheEngine" share />;
}
