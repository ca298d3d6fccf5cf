import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';
import { RobotQuestions } from '../../robot/components/RobotQuestions';

/**
 * /dataAnalysis: GET /api/analyse/aiDegree (docs/metrics.md), then the robot's questions, handoffs and
 * unanswered questions (GET /api/analyse/aiDegree/robot).
 */
export default function StatsAiStatisticsScreen() {
  return (
    <>
      <AnalysisScreen call="aiDegree" />
      <RobotQuestions />
    </>
  );
}
