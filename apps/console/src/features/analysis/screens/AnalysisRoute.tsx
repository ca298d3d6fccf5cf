import { useLocation } from 'react-router';
import type { AnalysisCall } from '@kefu/protocol';
import type { ComponentType } from 'react';
import { AnalysisScreen } from '../../../components/analysis/AnalysisScreen';
import { RobotQuestions } from '../../robot/components/RobotQuestions';

/**
 * The 17 /dataAnalysis screens: what each states of its own (its call, a share chart for categorical
 * dimensions, further calls it shows). One lazy chunk for all of them, so the console's entry carries one
 * import instead of seventeen.
 */
const SCREENS: Record<
  string,
  {
    call: AnalysisCall;
    share?: boolean;
    more?: AnalysisCall[];
    /** What the screen shows below the figures. */
    after?: ComponentType;
  }
> = {
  searchEngine: { call: 'searcheEngine', share: true },
  section: { call: 'organDegree', share: true },
  customerService: { call: 'userDegree', share: true },
  satisfaction: { call: 'dereeList', share: true },
  workLog: { call: 'workLog', share: true, more: ['workLogList'] },
  quality: { call: 'quality' },
  qualityLabel: { call: 'label/quality' },
  workOrganLog: { call: 'workOrganLog', share: true },
  regionalAnalysis: { call: 'regionList', share: true },
  browser: { call: 'browserData', share: true },
  operatingSystem: { call: 'osnameData', share: true },
  sessionTag: { call: 'labelList', share: true },
  timeAnalysis: { call: 'visitor' },
  channelAnalysis: { call: 'channelCount', share: true },
  websiteAnalysis: { call: 'snsidCount', share: true },
  dateAnalysis: { call: 'dateCount' },
  aiStatistics: { call: 'aiDegree', after: RobotQuestions },
};

export default function AnalysisRoute() {
  const path = useLocation().pathname.split('/').pop() ?? '';
  const s = SCREENS[path];
  if (!s) return null;
  const After = s.after;
  return (
    <>
      <AnalysisScreen key={path} call={s.call} share={s.share} more={s.more} />
      {After && <After />}
    </>
  );
}
