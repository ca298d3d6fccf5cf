import { PERSONAL_SECURITY_CODE } from './compliance.js';
import type { PermissionRequirement } from './permissions.js';

/**
 * Console routes of spec section 2 with their permission codes. The console builds its router
 * from this table; the server uses it to check that every screen has a code.
 */
export interface RouteDef {
  path: string;
  code?: PermissionRequirement;
  redirect?: string;
  /** i18n key of the menu title */
  title: string;
  hidden?: boolean;
  /**
   * The user's own settings: reachable with the route's own code even without the parent's (every role
   * holds A09_A07_A01, while only administrators hold A09); the parent then shows only such children.
   */
  personal?: boolean;
  children?: RouteDef[];
}

/** Personal security's screen (code PERSONAL_SECURITY_CODE, held by every stock role). */
export const PERSONAL_SECURITY_PATH = '/setup/personaSecurity';

const r = (path: string, code: PermissionRequirement, title: string): RouteDef => ({ path, code, title });

export const MAIN_ROUTES: readonly RouteDef[] = [
  r('dialogue', 'A01', 'menu.dialogue'),
  r('tourist', 'A02', 'menu.tourist'),
  r('monitor', 'A03', 'menu.monitor'),
  r('history', 'A04', 'menu.history'),
  r('card', 'A05', 'menu.card'),
  {
    path: 'dataAnalysis',
    code: 'A06',
    title: 'menu.dataAnalysis',
    redirect: 'searchEngine',
    children: [
      r('searchEngine', 'A06_A01_A01', 'menu.searchEngine'),
      r('section', 'A06_A02_A01', 'menu.sectionStats'),
      r('customerService', 'A06_A02_A02', 'menu.customerService'),
      r('satisfaction', 'A06_A02_A03', 'menu.satisfactionStats'),
      r('workLog', 'A06_A02_A04', 'menu.workLog'),
      r('quality', 'A06_A02_A05', 'menu.qualityStats'),
      r('qualityLabel', 'A06_A02_A06', 'menu.qualityLabelStats'),
      r('workOrganLog', 'A06_A02_A07', 'menu.workOrganLog'),
      r('loginLog', 'A06_A02_A08', 'menu.loginLog'),
      r('regionalAnalysis', 'A06_A03_A01', 'menu.regionalAnalysis'),
      r('browser', 'A06_A03_A02', 'menu.browser'),
      r('operatingSystem', 'A06_A03_A03', 'menu.operatingSystem'),
      r('sessionTag', 'A06_A03_A04', 'menu.sessionTag'),
      r('timeAnalysis', 'A06_A03_A05', 'menu.timeAnalysis'),
      r('channelAnalysis', 'A06_A03_A06', 'menu.channelAnalysis'),
      r('websiteAnalysis', 'A06_A03_A07', 'menu.websiteAnalysis'),
      r('dateAnalysis', 'A06_A03_A08', 'menu.dateAnalysis'),
      r('aiStatistics', 'A06_A04_A01', 'menu.aiStatistics'),
    ],
  },
  {
    path: 'quality',
    code: 'A11',
    title: 'menu.quality',
    redirect: 'inspect',
    children: [
      r('inspect', 'A11_A01', 'menu.inspect'),
      r('distribution', 'A11_A02', 'menu.inspectDistribution'),
      r('staffInspect', 'A11_A03', 'menu.staffInspect'),
    ],
  },
  {
    path: 'setup',
    code: 'A09',
    title: 'menu.setup',
    redirect: 'websiteAccess',
    children: [
      r('websiteAccess', 'A09_A01_A01', 'menu.websiteAccess'),
      { ...r('accessCode', 'A09_A01_A01', 'menu.accessCode'), hidden: true },
      { ...r('robot', 'A09_A01_A01', 'menu.accessRobot'), hidden: true },
      r('wechat', 'A09_A01_A02', 'menu.wechat'),
      r('officialAccount', 'A09_A01_A02', 'menu.officialAccount'),
      r('weapp', 'A09_A01_A03', 'menu.weapp'),
      r('section', ['A09_A02_A01', 'A09_A03_A13'], 'menu.section'),
      r('role', 'A09_A02_A02', 'menu.role'),
      r('prompt', 'A09_A03_A01', 'menu.prompt'),
      r('distribution', 'A09_A03_A02', 'menu.distribution'),
      r('workingHours', 'A09_A03_A03', 'menu.workingHours'),
      r('satisfaction', 'A09_A03_A04', 'menu.satisfaction'),
      r('lineUp', 'A09_A03_A05', 'menu.lineUp'),
      r('sensitiveWords', 'A09_A03_A06', 'menu.sensitiveWords'),
      r('label', 'A09_A03_A07', 'menu.label'),
      r('service', 'A09_A03_A08', 'menu.service'),
      r('quickreply', 'A09_A03_A09', 'menu.quickreply'),
      r('black', 'A09_A03_A10', 'menu.black'),
      r('other', 'A09_A03_A11', 'menu.other'),
      r('qualityLabel', 'A09_A03_A12', 'menu.qualityLabel'),
      r('consulting', 'A09_A04_A01', 'menu.consulting'),
      r('invite', 'A09_A04_A02', 'menu.invite'),
      r('dialogue', 'A09_A04_A03', 'menu.dialogueWindow'),
      r('information', 'A09_A04_A04', 'menu.information'),
      r('faq', 'A09_A04_A05', 'menu.faq'),
      r('customerRobot', 'A09_A05_A01', 'menu.customerRobot'),
      { ...r('setupRobot', 'A09_A05_A01', 'menu.setupRobot'), hidden: true },
      r('knowlede', 'A09_A05_A02', 'menu.knowlede'),
      r('records', 'A09_A06_A01', 'menu.records'),
      r('secretKey', 'A09_A06_A02', 'menu.secretKey'),
      r('business', 'A09_A06_A03', 'menu.business'),
      { ...r('personaSecurity', PERSONAL_SECURITY_CODE, 'menu.personaSecurity'), personal: true },
      r('corporateSecurity', 'A09_A07_A02', 'menu.corporateSecurity'),
    ],
  },
];

/** The spec's internal path dataList is rewritten to dataAnalysis. */
export const ROUTE_REWRITES: Readonly<Record<string, string>> = { '/dataList': '/dataAnalysis' };

export const PUBLIC_PATHS = [
  '/login',
  '/register',
  '/thirdLogin',
  '/thirdLogin/bind',
  '/401',
  '/404',
] as const;
export const VISITOR_PAGES = ['text', 'pc', 'mobile', 'mini', 'navigation'] as const;
export type VisitorPage = (typeof VISITOR_PAGES)[number];
