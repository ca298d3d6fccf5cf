/**
 * Console texts of the first-use fixes: the agent state in the header, the chat list's offline and new
 * marks, system lines, the visitor's page trail, visitor texts per language, the shell's settings.
 */
export const firstUseZh = {
  'texts.open': '其他语言',
  'texts.title': '访客文字的其他语言版本',
  'texts.hint': '访客使用其他语言时看到这里的文字；留空则使用{{base}}（即设置页上的文字，显示为占位提示）。',
  'texts.saved': '{{language}}文字已保存',
  'dialogue.welcomeHere': '欢迎语和无坐席提示语在「提示语」中统一设置，所有网站共用。',
  'dialogue.welcomeLink': '前往提示语设置',
  'user.rolesHint': '用户通过角色获得权限：至少选择一个角色，否则无法登录。',
  'user.rolesAdminHint': '该类型拥有全部权限，不需要角色。',
  'user.rolesRequired': '请至少选择一个角色',
  'tourist.chat.end': '已对话',
  'shell.agentStateShared':
    '你的接待状态：所有标签页和设备共用；刷新或断线不会改变，全部页面关闭 60 秒后才变为未就绪。',
  'shell.themeHint': '更换控制台的主题颜色（仅保存在本浏览器）',
  'dialogue.trail': '访问轨迹',
  'dialogue.offline': '访客已离线',
  'dialogue.offlineFor': '离线 {{time}}',
  'dialogue.offlineSince': '访客于 {{time}} 关闭了对话窗口',
  'dialogue.newChat': '新',
  'dialogue.system.welcome': '欢迎语',
  'dialogue.system.assigned': '{{agent}} 接入会话',
  'dialogue.system.transfer': '会话已转接给 {{agent}}',
  'dialogue.system.end': '会话已结束',
} as const;

export const firstUseEn: Record<keyof typeof firstUseZh, string> = {
  'texts.open': 'Other languages',
  'texts.title': 'Visitor texts in other languages',
  'texts.hint':
    'Visitors using another language see these texts; an empty one falls back to {{base}} (the text on the settings page, shown as placeholder).',
  'texts.saved': '{{language}} texts saved',
  'dialogue.welcomeHere':
    'The welcome and the no-agent texts are set once, under Prompts, for every website.',
  'dialogue.welcomeLink': 'Go to Prompts',
  'user.rolesHint': 'A user gets its permissions from its roles: choose at least one, or it cannot log in.',
  'user.rolesAdminHint': 'This type holds every permission and needs no role.',
  'user.rolesRequired': 'Choose at least one role',
  'tourist.chat.end': 'Chatted',
  'shell.agentStateShared':
    'Your availability: shared by all your tabs and devices; a reload or a dropped connection keeps it, it becomes Not ready only 60 s after every page is closed.',
  'shell.themeHint': "Change the console's colour (kept in this browser)",
  'dialogue.trail': 'Page trail',
  'dialogue.offline': 'Visitor left',
  'dialogue.offlineFor': 'Left {{time}}',
  'dialogue.offlineSince': 'The visitor closed the chat window at {{time}}',
  'dialogue.newChat': 'New',
  'dialogue.system.welcome': 'Welcome',
  'dialogue.system.assigned': '{{agent}} took the chat',
  'dialogue.system.transfer': 'Transferred to {{agent}}',
  'dialogue.system.end': 'The conversation ended',
};
