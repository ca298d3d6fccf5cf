import type { zh } from './zh.js';

export const en: Record<keyof typeof zh, string> = {
  'app.title': 'Online customer service',
};
