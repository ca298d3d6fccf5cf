export const zh = {
  'app.title': '在线客服',
} as const;
