import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/workOrganLog (docs/metrics.md). */
export default function StatsWorkOrganLogScreen() {
  return <AnalysisScreen call="workOrganLog" share />;
}
