/**
 * The permission-code tree of spec section 2. One source of truth: the server guards
 * routes with these codes, the console builds its router and the role-authorisation tree from them.
 */
export interface PermissionNode {
  code: string;
  zh: string;
  en: string;
  children?: PermissionNode[];
}

const leaf = (code: string, zh: string, en: string): PermissionNode => ({ code, zh, en });
const node = (code: string, zh: string, en: string, children: PermissionNode[]): PermissionNode => ({
  code,
  zh,
  en,
  children,
});

export const PERMISSION_TREE: readonly PermissionNode[] = [
  leaf('A01', '在线对话', 'Live chat'),
  leaf('A02', '在线访客', 'Online visitors'),
  node('A03', '对话监控', 'Monitor', [
    leaf('A03_A01', '监控全部技能组', 'Monitor all groups'),
    leaf('A03_A02', '监控本部门', 'Monitor own department'),
  ]),
  leaf('A04', '历史对话', 'Conversation history'),
  leaf('A05', '联系人', 'Contacts'),
  node('A06', '数据分析', 'Data analysis', [
    node('A06_A01', '搜索引擎', 'Search engines', [leaf('A06_A01_A01', '搜索引擎', 'Search engine')]),
    node('A06_A02', '工作统计', 'Work statistics', [
      leaf('A06_A02_A01', '部门统计', 'Department statistics'),
      leaf('A06_A02_A02', '客服统计', 'Agent statistics'),
      leaf('A06_A02_A03', '满意度', 'Satisfaction'),
      leaf('A06_A02_A04', '客服工作日志', 'Agent work log'),
      leaf('A06_A02_A05', '质检统计', 'Quality'),
      leaf('A06_A02_A06', '质检标签', 'Quality labels'),
      leaf('A06_A02_A07', '部门工作日志', 'Department work log'),
      leaf('A06_A02_A08', '登录日志', 'Login log'),
    ]),
    node('A06_A03', '访客分析', 'Visitor analysis', [
      leaf('A06_A03_A01', '地域分析', 'Regions'),
      leaf('A06_A03_A02', '浏览器', 'Browsers'),
      leaf('A06_A03_A03', '操作系统', 'Operating systems'),
      leaf('A06_A03_A04', '会话标签', 'Conversation tags'),
      leaf('A06_A03_A05', '访问时段', 'Visit time periods'),
      leaf('A06_A03_A06', '渠道分析', 'Channels'),
      leaf('A06_A03_A07', '网站分析', 'Websites'),
      leaf('A06_A03_A08', '日期分析', 'Dates'),
    ]),
    node('A06_A04', '机器人统计', 'AI statistics', [leaf('A06_A04_A01', '机器人统计', 'AI statistics')]),
  ]),
  node('A09', '系统设置', 'Setup', [
    node('A09_A01', '接入渠道', 'Channels', [
      leaf('A09_A01_A01', '网站接入', 'Website access'),
      leaf('A09_A01_A02', '微信客服/公众号', 'WeChat service / official account'),
      leaf('A09_A01_A03', '小程序', 'Mini-program'),
    ]),
    node('A09_A02', '组织管理', 'Organisation', [
      leaf('A09_A02_A01', '部门管理', 'Departments'),
      leaf('A09_A02_A02', '角色管理', 'Roles'),
    ]),
    node('A09_A03', '对话设置', 'Conversation settings', [
      leaf('A09_A03_A01', '提示语', 'Prompts'),
      leaf('A09_A03_A02', '分配规则', 'Assignment rules'),
      leaf('A09_A03_A03', '工作时间', 'Working hours'),
      leaf('A09_A03_A04', '满意度设置', 'Satisfaction settings'),
      leaf('A09_A03_A05', '排队设置', 'Queueing'),
      leaf('A09_A03_A06', '敏感词', 'Sensitive words'),
      leaf('A09_A03_A07', '标签', 'Tags'),
      leaf('A09_A03_A08', '服务主题', 'Service topics'),
      leaf('A09_A03_A09', '快捷回复', 'Canned replies'),
      leaf('A09_A03_A10', '黑名单', 'Blacklist'),
      leaf('A09_A03_A11', '其他设置', 'Other settings'),
      leaf('A09_A03_A12', '质检标签', 'Quality labels'),
      leaf('A09_A03_A13', '部门设置', 'Department settings'),
    ]),
    node('A09_A04', '访客端设置', 'Visitor widget', [
      leaf('A09_A04_A01', '咨询图标', 'Consult icon'),
      leaf('A09_A04_A02', '邀请图标', 'Invite icon'),
      leaf('A09_A04_A03', '对话窗口', 'Chat window'),
      leaf('A09_A04_A04', '信息收集', 'Information collection'),
      leaf('A09_A04_A05', '常见问题', 'FAQ'),
    ]),
    node('A09_A05', '机器人', 'Robots', [
      leaf('A09_A05_A01', '机器人设置', 'Robots'),
      leaf('A09_A05_A02', '知识库', 'Knowledge base'),
    ]),
    node('A09_A06', '系统管理', 'System', [
      leaf('A09_A06_A01', '备案信息', 'Records'),
      leaf('A09_A06_A02', '密钥管理', 'Secret key'),
      leaf('A09_A06_A03', '业务系统', 'Business systems'),
    ]),
    node('A09_A07', '安全设置', 'Security', [
      leaf('A09_A07_A01', '个人安全', 'Personal security'),
      leaf('A09_A07_A02', '企业安全', 'Corporate security'),
    ]),
  ]),
  node('A11', '质检', 'Quality inspection', [
    leaf('A11_A01', '会话质检', 'Conversation inspection'),
    leaf('A11_A02', '质检分配', 'Inspection assignment'),
    leaf('A11_A03', '客服质检', 'Agent inspection'),
  ]),
];

function flatten(nodes: readonly PermissionNode[], out: string[] = []): string[] {
  for (const n of nodes) {
    out.push(n.code);
    if (n.children) flatten(n.children, out);
  }
  return out;
}

export const ALL_PERMISSION_CODES: readonly string[] = Object.freeze(flatten(PERMISSION_TREE));
const CODE_SET = new Set(ALL_PERMISSION_CODES);

export const isPermissionCode = (code: string): boolean => CODE_SET.has(code);

/** A requirement is one code, or a list of codes of which any one suffices. */
export type PermissionRequirement = string | readonly string[];

export type AuthMap = Record<string, true>;

/** usertype '0' is the all-powerful account of the spec. */
export const SUPER_USERTYPE = '0';

/** Live chat (spec /dialogue): going ready or busy, receiving chats and sending on /im/agent need it. */
export const LIVE_CHAT_CODE = 'A01';
/** Monitor (spec /monitor): a code of this family lets its holder watch and join others' chats. */
export const MONITOR_CODE = 'A03';

export function holdsMonitor(usertype: string, auth: AuthMap): boolean {
  if (usertype === SUPER_USERTYPE) return true;
  for (const c in auth) if (c === MONITOR_CODE || c.startsWith(`${MONITOR_CODE}_`)) return true;
  return false;
}

export function hasPermission(
  usertype: string,
  auth: AuthMap,
  required: PermissionRequirement | undefined,
): boolean {
  if (usertype === SUPER_USERTYPE || required === undefined) return true;
  const codes = typeof required === 'string' ? [required] : required;
  return codes.some((c) => auth[c] === true);
}

/** Monitor scope from spec section 6. */
export function monitorScope(auth: AuthMap, superuser: boolean): 'all' | 'organ' | 'none' {
  if (auth.A03_A01 || superuser) return 'all';
  if (auth.A03_A02) return 'organ';
  return 'none';
}
