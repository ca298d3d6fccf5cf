/**
 * The small part of the error catalogue every page needs at start (envelope codes, the console's
 * fixed texts, the form-field messages): kept apart from ERROR_MESSAGES so the login page does not
 * load the whole catalogue (bench B7).
 */
export const CODES = {
  ok: 200,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  methodNotAllowed: 405,
  payloadTooLarge: 413,
  tooManyRequests: 429,
  serverError: 500,
  insufficientStorage: 507,
  /** Never toasted by the console (spec section 8). */
  silentNoData: 10702,
  silentStale: 10026,
} as const;

export const SILENT_CODES: readonly number[] = [CODES.silentNoData, CODES.silentStale];

/** Console-only fixed texts of spec section 8. */
export const CLIENT_TEXTS = {
  noPermission: '未获取到用户权限！',
  notLoggedIn: '未登录',
  timeout: '请求超时，请稍后再试',
  serverError: 'Server error, please try later or contact the administrator',
  imageLoadFailed: '加载失败',
  voiceFormat: 'audio file format error, supports mp3/mpeg/ogg',
  copySucceeded: 'copy succeeded',
} as const;

/** Field validation messages; part of ERROR_MESSAGES, also used by the console's form rules. */
export const FIELD_ERROR_MESSAGES = {
  required: { zh: '必填项不能为空', en: 'Required field cannot be empty' },
  email_format: { zh: '邮箱格式错误', en: 'Wrong email format' },
  phone_format: { zh: '手机格式错误', en: 'Wrong mobile format' },
  ip_format: { zh: '请输入正确的IP地址', en: 'Enter a valid IP address' },
} as const;
