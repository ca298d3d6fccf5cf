/**
 * Envelope codes and server error keys (spec sections 5 and 8). The server sends
 * `{success:false, code, msg, key}`; the console shows the i18n text of `key` when it knows it,
 * otherwise `msg`.
 */
import { FIELD_ERROR_MESSAGES } from './codes.js';

export const ERROR_MESSAGES = {
  ...FIELD_ERROR_MESSAGES,
  name_repeat: { zh: '名称重复', en: 'Name already exists' },
  username_repeat: { zh: '用户名重复', en: 'Username already exists' },
  mobile_email_exists: { zh: '手机号或邮箱已存在', en: 'Mobile or email already exists' },
  password_wrong: { zh: '密码错误', en: 'Wrong password' },
  image_format: { zh: '图片格式错误', en: 'Wrong image format' },
  username_empty: { zh: '用户名不能为空', en: 'User name cannot be empty' },
  group_bound: { zh: '该分组已绑定', en: 'Group already bound' },
  time_range_invalid: { zh: '请添加有效的时间段', en: 'Add a valid time range' },
  time_start_after_end: { zh: '开始时间不能晚于结束时间', en: 'Start time is after end time' },
  priority_repeat: { zh: '优先级重复', en: 'Duplicate priority' },
  sensitive_word_exists: { zh: '敏感词已存在', en: 'Sensitive word already exists' },
  category_name_repeat: { zh: '分类名称重复', en: 'Category name repeated' },
  category_parent_self: { zh: '上级分类不能是自己', en: 'Category parent cannot be itself' },
  // Keys of our own, beyond the spec's list.
  not_logged_in: { zh: '未登录', en: 'Not logged in' },
  token_expired: { zh: '登录已过期，请重新登录', en: 'Session expired, please log in again' },
  user_not_found: { zh: '用户不存在', en: 'User does not exist' },
  /** What /tokens answers for an unknown user and for a wrong password alike (the login log tells them apart). */
  login_failed: { zh: '用户名或密码错误', en: 'Wrong user name or password' },
  post_only: {
    zh: '请使用 POST 提交 JSON（密码不能放在网址中）',
    en: 'Use POST with a JSON body (passwords never go in a URL)',
  },
  user_disabled: { zh: '账号已停用', en: 'Account disabled' },
  login_rate_limited: { zh: '登录尝试过多，请稍后再试', en: 'Too many login attempts, try later' },
  forbidden: { zh: '没有权限', en: 'Permission denied' },
  not_found: { zh: '数据不存在', en: 'Not found' },
  invalid_body: { zh: '请求格式错误', en: 'Malformed request' },
  invalid_field: { zh: '字段格式错误', en: 'Invalid field' },
  too_long: { zh: '内容过长', en: 'Value too long' },
  organ_has_users: { zh: '部门下还有用户，不能删除', en: 'Department still has users' },
  organ_has_children: { zh: '部门下还有子部门，不能删除', en: 'Department still has sub-departments' },
  organ_parent_invalid: { zh: '上级部门无效', en: 'Invalid parent department' },
  role_has_users: { zh: '角色下还有用户，不能删除', en: 'Role still has users' },
  self_admin_removal: { zh: '不能移除自己的管理员权限', en: 'You cannot remove your own admin rights' },
  self_delete: { zh: '不能删除自己', en: 'You cannot delete yourself' },
  password_weak: {
    zh: '密码至少8位，需包含字母和数字',
    en: 'Password needs 8+ chars with letters and digits',
  },
  // Live conversations (realtime).
  conversation_not_found: { zh: '会话不存在', en: 'Conversation not found' },
  conversation_ended: { zh: '会话已结束', en: 'The conversation has ended' },
  not_conversation_owner: { zh: '该会话不属于您', en: 'This conversation is not yours' },
  not_collaborator: { zh: '您未协同该会话', en: 'You are not collaborating on this conversation' },
  withdraw_not_sender: { zh: '只能撤回自己发送的消息', en: 'Only the sender may withdraw a message' },
  withdraw_expired: {
    zh: '超过2分钟的消息不能撤回',
    en: 'Messages older than 2 minutes cannot be withdrawn',
  },
  agent_not_ready: { zh: '坐席未就绪', en: 'Agent is not ready' },
  transfer_target_invalid: { zh: '转接目标无效', en: 'Invalid transfer target' },
  transfer_not_found: { zh: '转接请求不存在或已失效', en: 'Transfer request not found or expired' },
  transfer_pending: { zh: '已有待处理的转接请求', en: 'A transfer is already pending' },
  visitor_blacklisted: { zh: '访客已被拉黑', en: 'Visitor is blacklisted' },
  visitor_token: { zh: '访客凭证无效', en: 'Invalid visitor credential' },
  access_point_not_found: { zh: '网站接入不存在', en: 'Unknown website access code' },
  file_required: { zh: '请选择文件', en: 'Choose a file' },
  file_too_large: { zh: '文件过大', en: 'File too large' },
  upload_quota: { zh: '上传过于频繁，请稍后再试', en: 'Too many uploads, try later' },
  storage_full: { zh: '存储空间已满，请联系管理员', en: 'Storage is full, contact the administrator' },
  audio_format: {
    zh: 'audio file format error, supports mp3/mpeg/ogg',
    en: 'audio file format error, supports mp3/mpeg/ogg',
  },
  // Visitor channel.
  not_in_work_time: { zh: '当前不在工作时间', en: 'Outside working hours' },
  leavemsg_rate_limited: { zh: '留言过于频繁，请稍后再试', en: 'Too many messages, try later' },
  leavemsg_disabled: { zh: '留言功能未开启', en: 'Leave messages are turned off' },
  leavemsg_done: { zh: '留言已处理', en: 'The message is already handled' },
  satisfaction_disabled: { zh: '满意度评价未开启', en: 'Satisfaction rating is turned off' },
  satisfaction_done: { zh: '您已评价过本次会话', en: 'This conversation has already been rated' },
  satisfaction_not_allowed: { zh: '当前会话还不能评价', en: 'This conversation cannot be rated yet' },
  // Online visitors.
  pageview_rate_limited: { zh: '请求过于频繁，请稍后再试', en: 'Too many requests, try later' },
  online_visitor_not_found: { zh: '访客不存在', en: 'Visitor not found' },
  online_visitor_offline: { zh: '访客已离线', en: 'The visitor is offline' },
  online_visitor_in_chat: { zh: '访客已在对话中', en: 'The visitor is already in a chat' },
  online_not_in_chat: {
    zh: '访客尚未发起对话，请先邀请访客',
    en: 'The visitor has not started a chat; invite them first',
  },
  online_other_agent: { zh: '访客正在与其他坐席对话', en: 'The visitor is chatting with another agent' },
  online_in_queue: { zh: '访客正在排队等待分配', en: 'The visitor is waiting in the queue' },
  invite_not_found: { zh: '邀请不存在或已失效', en: 'Invitation not found or expired' },
  // Monitor and supervision (issue 13).
  monitor_scope: {
    zh: '该会话或坐席不在您的监控范围内',
    en: 'This conversation or agent is outside your monitoring scope',
  },
  not_ai_conversation: { zh: '该会话不是机器人会话', en: 'This conversation is not handled by the robot' },
  already_ai: { zh: '该会话已由机器人接待', en: 'The robot already handles this conversation' },
  // Knowledge base and robots (issue 15).
  kb_type_not_empty: {
    zh: '该分类下还有子分类或知识，不能删除',
    en: 'This type still holds subtypes or items',
  },
  kb_question_repeat: { zh: '该标准问题已存在', en: 'This question already exists' },
  kb_synonym_short: { zh: '同义词至少需要两个词', en: 'A synonym group needs at least two words' },
  kb_import_file_invalid: {
    zh: '文件不是可识别的知识库表格（.xlsx，首行为表头，含“标准问题”和“答案”列）',
    en: 'Not a knowledge sheet (.xlsx with a header row and the Question and Answer columns)',
  },
  robot_thresholds: {
    zh: '建议阈值不能高于回答阈值',
    en: 'The suggestion threshold cannot be above the answer threshold',
  },
  url_format: { zh: '请输入 http(s):// 开头的地址', en: 'Enter an http(s):// address' },
  robot_in_use: {
    zh: '该机器人仍在接待会话，请先停用并等待会话结束',
    en: 'The robot still serves open chats; disable it and let them end first',
  },
  robot_none: {
    zh: '该会话的接入点没有可用的机器人',
    en: 'No enabled robot serves this conversation’s access point',
  },
  ai_service_off: { zh: 'AI 服务未开启或未配置', en: 'The AI service is off or not configured' },
  agent_full: { zh: '该坐席已达最大接待数', en: 'The agent has no free seat' },
  takeover_own: { zh: '该会话已由您接待', en: 'You already serve this conversation' },
  conversation_changed: {
    zh: '会话状态已变化，请刷新后重试',
    en: 'The conversation changed meanwhile; refresh and try again',
  },
  // Contacts import.
  import_file_invalid: {
    zh: '文件不是可识别的联系人表格（.xlsx，首行为表头）',
    en: 'Not a contacts sheet (.xlsx with a header row)',
  },
  import_rows_invalid: {
    zh: '表格中有错误，未导入任何数据',
    en: 'The sheet has errors; nothing was imported',
  },
  // Compliance and security setup (issue 14).
  sensitive_blocked: { zh: '消息包含敏感词，已被拦截', en: 'The message contains blocked words' },
  translate_disabled: { zh: '消息翻译未开启', en: 'Message translation is turned off' },
  translate_failed: { zh: '翻译失败，请重试', en: 'Translation failed, try again' },
  crm_not_linked: { zh: '尚未关联业务系统记录', en: 'No linked record in this system' },
  secret_not_set: { zh: '尚未生成密钥', en: 'No secret key yet' },
  totp_required: { zh: '请输入动态验证码', en: 'Enter the verification code' },
  totp_invalid: { zh: '动态验证码错误', en: 'Wrong verification code' },
  totp_enrol_required: {
    zh: '您的角色要求两步验证，请先绑定验证器',
    en: 'Your role requires two-factor authentication; set up an authenticator first',
  },
  ip_not_allowed: { zh: '当前IP不允许登录', en: 'Login is not allowed from this IP address' },
  password_expired: { zh: '密码已过期，请修改密码', en: 'Your password has expired; change it' },
  password_policy: { zh: '密码不符合企业安全策略', en: 'The password does not meet the password policy' },
  register_disabled: { zh: '未开放注册', en: 'Self-registration is turned off' },
  third_login_failed: { zh: '第三方登录失败', en: 'Third-party login failed' },
  third_identity_missing: {
    zh: '第三方返回的用户信息中没有用户ID字段，请管理员检查身份源的“用户ID字段”',
    en: "The provider's user info has no user id field; an administrator should check the provider's id field",
  },
  identity_bound: { zh: '该第三方账号已绑定其他用户', en: 'This identity is already linked to another user' },
  ticket_invalid: { zh: '操作已过期，请重新登录', en: 'This step has expired, log in again' },
  company_repeat: { zh: '该企业名称已注册', en: 'This company name is already registered' },
  register_rate_limited: { zh: '注册过于频繁，请稍后再试', en: 'Too many registrations, try later' },
  // History, search and exports (issue 12).
  export_not_found: { zh: '导出记录不存在或已过期', en: 'Export not found or expired' },
  export_not_ready: { zh: '导出尚未完成', en: 'The export is not finished yet' },
  export_failed: { zh: '导出失败，请重试', en: 'The export failed, try again' },
  export_interrupted: {
    zh: '导出被中断（服务重启），请重新导出',
    en: 'The export was interrupted (server restart); export again',
  },
  export_busy: {
    zh: '导出任务过多，请等待当前任务完成',
    en: 'Too many exports running; wait for them to finish',
  },
  keyword_invalid: { zh: '请输入有效的关键词（文字或数字）', en: 'Enter a keyword with letters or digits' },
  keyword_too_long: {
    zh: '关键词过长（最多 100 个字符）',
    en: 'The keyword is too long (at most 100 characters)',
  },
  search_timeout: {
    zh: '搜索超时，请缩小范围后重试',
    en: 'The search took too long; narrow it down and try again',
  },
  range_invalid: { zh: '范围无效：起始值不能大于结束值', en: 'Invalid range: the start is after the end' },
  range_too_long: { zh: '时间范围过长（最多 366 天）', en: 'The date range is too long (at most 366 days)' },
  dimension_unknown: { zh: '不支持的统计维度', en: 'Unknown dimension for this statistic' },
  out_of_scope: {
    zh: '所选部门或客服不在您的数据范围内',
    en: 'The department or agent is outside your data scope',
  },
  role_required: {
    zh: '请至少选择一个角色：用户通过角色获得权限，没有角色无法登录',
    en: 'Choose at least one role: a user gets its permissions from its roles and cannot log in without one',
  },
  no_permission: {
    zh: '未获取到用户权限！请联系管理员为该账号分配角色',
    en: 'This account has no permissions yet: ask an administrator to give it a role',
  },
  // Messaging-platform channels (issue 16).
  channel_window_closed: {
    zh: '已超过平台回复时限（用户最后一条消息后 48 小时），用户再次发消息后才能回复',
    en: "The platform's reply window is closed; you can answer once the user writes again",
  },
  channel_quota_exhausted: {
    zh: '已达到平台回复条数上限，用户再次发消息后才能继续回复',
    en: "The platform's reply quota is used up; you can answer once the user writes again",
  },
  channel_user_blocked: {
    zh: '用户已拒收或账号无效，消息未送达',
    en: 'The user refuses messages or is invalid; not delivered',
  },
  channel_session_invalid: {
    zh: '平台会话状态不允许发送（会话已转给企业微信接待人员或已结束）',
    en: 'The platform session does not allow sending (handed to a WeCom servicer, or ended)',
  },
  channel_unsupported: { zh: '该渠道不支持此类消息', en: 'This channel cannot carry this kind of message' },
  channel_send_failed: { zh: '消息发送到平台失败', en: 'The message could not be delivered to the platform' },
  channel_config: {
    zh: '渠道配置有误（账号、密钥或权限），消息未送达',
    en: 'Channel misconfigured (account, secret or rights); not delivered',
  },
  channel_not_platform: {
    zh: '该会话不是第三方平台会话',
    en: 'This conversation is not on a messaging platform',
  },
  channel_recall_unsupported: {
    zh: '该平台不支持撤回：消息已在本系统标记撤回，但用户仍能看到',
    en: 'This platform cannot recall: the message is marked withdrawn here, but the user still sees it',
  },
  channel_app_exists: { zh: '该平台应用已接入', en: 'This platform app is already connected' },
  channel_platform_error: {
    zh: '平台接口调用失败，请检查配置后重试',
    en: 'The platform call failed; check the settings and retry',
  },
  // Quality inspection (issue 17).
  quality_score_range: { zh: '分数超出该评分项的范围', en: 'The score is outside the item’s range' },
  quality_item_unknown: { zh: '评分项不属于该评分表', en: 'The item is not on this scorecard' },
  quality_own_conversation: { zh: '不能质检自己的会话', en: 'You cannot inspect your own conversations' },
  quality_not_inspector: { zh: '该质检未分配给您', en: 'This inspection is not assigned to you' },
  quality_not_ended: { zh: '会话尚未结束', en: 'The conversation has not ended' },
  quality_excluded: {
    zh: '该会话已标记为不质检，请先取消标记',
    en: 'The conversation is marked not for inspection: include it again first',
  },
  quality_already_allotted: { zh: '会话已分配质检', en: 'The conversation is already assigned' },
  quality_already_scored: { zh: '已评分的质检不能重新分配', en: 'A scored inspection cannot be reassigned' },
  quality_no_card: { zh: '未配置评分表', en: 'No scorecard is set up' },
  quality_card_mismatch: {
    zh: '所选质检的评分表不同',
    en: 'The selected inspections use different scorecards',
  },
  quality_locked: { zh: '申诉处理中，不能修改评分', en: 'An appeal is open: the score cannot be changed' },
  quality_not_sent: { zh: '质检结果尚未发送', en: 'The result has not been sent yet' },
  quality_appeal_window: { zh: '已超过申诉期限', en: 'The appeal window has closed' },
  quality_appeal_not_owner: { zh: '只能申诉自己的质检结果', en: 'You can only appeal your own results' },
  quality_appeal_item_repeat: { zh: '该评分项已申诉过', en: 'This item has already been appealed' },
  quality_appeal_state: { zh: '申诉当前状态不允许此操作', en: 'The appeal’s state does not allow this' },
  quality_type_in_use: { zh: '该评分表已绑定技能组', en: 'The scorecard is bound to a skill group' },
  quality_finding_unknown: {
    zh: '自动发现不属于该会话',
    en: 'The automatic finding is not one of this conversation',
  },
  quality_ai_off: {
    zh: 'AI 评分建议未开启（质检设置与 AI 服务均需开启）',
    en: 'AI suggestions are off (turn on the quality setting and the AI service)',
  },
  quality_ai_failed: {
    zh: 'AI 服务未返回可用的建议，请稍后重试；评分未改变',
    en: 'The AI service gave no usable suggestion; try again later. Nothing was changed',
  },
  server_error: {
    zh: '服务器错误，请稍后再试或联系管理员',
    en: 'Server error, please try later or contact the administrator',
  },
} as const;

export type ErrorKey = keyof typeof ERROR_MESSAGES;

export function errorText(key: ErrorKey, lang: string): string {
  const m = ERROR_MESSAGES[key];
  return lang.startsWith('en') ? m.en : m.zh;
}
