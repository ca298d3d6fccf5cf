import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';

/** /dataAnalysis: GET /api/analyse/channelCount (docs/metrics.md). */
export default function StatsChannelScreen() {
  return <AnalysisScreen call="channelCount" share />;
}
