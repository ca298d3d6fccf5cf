import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyScreen } from './lazy';

/** The 17 analysis screens share one chunk (features/analysis/screens/AnalysisRoute). */
const AnalysisRoute = lazyScreen(() => import('../features/analysis/screens/AnalysisRoute'));

/**
 * Screens built so far, by absolute route path; every other permitted route renders the
 * "coming soon" page inside the shell. Each screen is its own chunk.
 */
export const SCREENS: Readonly<Record<string, LazyExoticComponent<ComponentType>>> = {
  '/dialogue': lazyScreen(() => import('../features/dialogue/screens/DialogueScreen')),
  '/tourist': lazyScreen(() => import('../features/tourist/screens/TouristScreen')),
  '/monitor': lazyScreen(() => import('../features/monitor/screens/MonitorScreen')),
  '/setup/section': lazyScreen(() => import('../features/section/screens/SectionScreen')),
  '/setup/role': lazyScreen(() => import('../features/role/screens/RoleScreen')),
  '/setup/websiteAccess': lazyScreen(() => import('../features/access/screens/WebsiteAccessScreen')),
  '/setup/consulting': lazyScreen(() => import('../features/access/screens/ConsultingScreen')),
  '/setup/invite': lazyScreen(() => import('../features/access/screens/InviteScreen')),
  '/setup/dialogue': lazyScreen(() => import('../features/access/screens/DialogueScreen')),
  '/setup/information': lazyScreen(() => import('../features/access/screens/InformationScreen')),
  '/setup/faq': lazyScreen(() => import('../features/access/screens/FaqScreen')),
  '/setup/workingHours': lazyScreen(() => import('../features/workingHours/screens/WorkingHoursScreen')),
  '/setup/satisfaction': lazyScreen(() => import('../features/satisfaction/screens/SatisfactionScreen')),
  '/setup/black': lazyScreen(() => import('../features/black/screens/BlackScreen')),
  '/setup/prompt': lazyScreen(() => import('../features/sessionConfig/screens/PromptScreen')),
  '/setup/distribution': lazyScreen(() => import('../features/sessionConfig/screens/DistributionScreen')),
  '/setup/lineUp': lazyScreen(() => import('../features/sessionConfig/screens/LineUpScreen')),
  '/setup/other': lazyScreen(() => import('../features/sessionConfig/screens/OtherScreen')),
  '/setup/quickreply': lazyScreen(() => import('../features/quickreply/screens/QuickReplyScreen')),
  '/card': lazyScreen(() => import('../features/contacts/screens/ContactsScreen')),
  '/setup/label': lazyScreen(() => import('../features/tags/screens/LabelScreen')),
  '/setup/service': lazyScreen(() => import('../features/tags/screens/ServiceTopicScreen')),
  '/setup/personaSecurity': lazyScreen(() => import('../features/security/screens/PersonaSecurityScreen')),
  '/history': lazyScreen(() => import('../features/history/screens/HistoryScreen')),
  '/dataAnalysis/loginLog': lazyScreen(() => import('../features/loginLog/screens/LoginLogScreen')),
  '/dataAnalysis/searchEngine': AnalysisRoute,
  '/dataAnalysis/section': AnalysisRoute,
  '/dataAnalysis/customerService': AnalysisRoute,
  '/dataAnalysis/satisfaction': AnalysisRoute,
  '/dataAnalysis/workLog': AnalysisRoute,
  '/dataAnalysis/quality': AnalysisRoute,
  '/dataAnalysis/qualityLabel': AnalysisRoute,
  '/dataAnalysis/workOrganLog': AnalysisRoute,
  '/dataAnalysis/regionalAnalysis': AnalysisRoute,
  '/dataAnalysis/browser': AnalysisRoute,
  '/dataAnalysis/operatingSystem': AnalysisRoute,
  '/dataAnalysis/sessionTag': AnalysisRoute,
  '/dataAnalysis/timeAnalysis': AnalysisRoute,
  '/dataAnalysis/channelAnalysis': AnalysisRoute,
  '/dataAnalysis/websiteAnalysis': AnalysisRoute,
  '/dataAnalysis/dateAnalysis': AnalysisRoute,
  '/dataAnalysis/aiStatistics': AnalysisRoute,
  '/setup/sensitiveWords': lazyScreen(() => import('../features/sensitive/screens/SensitiveWordsScreen')),
  '/setup/knowlede': lazyScreen(() => import('../features/knowledge/screens/KnowledgeScreen')),
  '/setup/customerRobot': lazyScreen(() => import('../features/robot/screens/RobotListScreen')),
  '/setup/setupRobot': lazyScreen(() => import('../features/robot/screens/RobotSettingsScreen')),
  '/setup/records': lazyScreen(() => import('../features/records/screens/RecordsScreen')),
  '/setup/corporateSecurity': lazyScreen(
    () => import('../features/security/screens/CorporateSecurityScreen'),
  ),
  '/setup/secretKey': lazyScreen(() => import('../features/secretKey/screens/SecretKeyScreen')),
  '/setup/business': lazyScreen(() => import('../features/business/screens/BusinessScreen')),
  '/setup/accessCode': lazyScreen(() => import('../features/access/screens/AccessCodeScreen')),
  '/setup/robot': lazyScreen(() => import('../features/access/screens/AccessRobotScreen')),
  '/setup/wechat': lazyScreen(() => import('../features/channels/screens/WechatScreen')),
  '/setup/officialAccount': lazyScreen(() => import('../features/channels/screens/OfficialAccountScreen')),
  '/setup/weapp': lazyScreen(() => import('../features/channels/screens/WeappScreen')),
  '/setup/qualityLabel': lazyScreen(() => import('../features/quality/screens/QualityLabelScreen')),
  '/quality/distribution': lazyScreen(() => import('../features/quality/screens/DistributionScreen')),
  '/quality/inspect': lazyScreen(() => import('../features/quality/screens/InspectScreen')),
  '/quality/staffInspect': lazyScreen(() => import('../features/quality/screens/StaffInspectScreen')),
};

export const Shell = lazyScreen(() => import('./Shell'));
export const ComingSoon = lazyScreen(() => import('./ComingSoon'));
export const LoginScreen = lazyScreen(() => import('../features/auth/screens/LoginScreen'));
export const RegisterScreen = lazyScreen(() => import('../features/auth/screens/RegisterScreen'));
export const ThirdLoginScreen = lazyScreen(() => import('../features/auth/screens/ThirdLoginScreen'));
export const StatusScreen = lazyScreen(() => import('./StatusScreen'));
export const VisitorPlaceholder = lazyScreen(() => import('../features/visitor/VisitorPlaceholder'));
