import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/workLog and workLogList (docs/metrics.md). */
export default function StatsWorkLogScreen() {
  return <AnalysisScreen call="workLog" share more={['workLogList']} />;
}
