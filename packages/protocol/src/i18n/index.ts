import { zh } from './zh.js';
import { en } from './en.js';

/** Console texts served by GET /api/language as name/text pairs. The first entry is the fallback. */
export const LANGUAGES = [
  { language: 'zh', name: '简体中文', texts: zh },
  { language: 'en', name: 'English', texts: en },
] as const;

export type TextKey = keyof typeof zh;
