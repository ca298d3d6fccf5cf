import type { VisitorTextScope, VisitorTextsDto } from '@kefu/protocol';
import { get, post } from '../../lib/api';

/** Visitor-facing texts in languages other than the base texts (GET/POST /api/visitorText). */
export const textsApi = {
  load: (q: { scope: VisitorTextScope; lang: string; appid?: string }, signal?: AbortSignal) =>
    get<VisitorTextsDto>('/visitorText', q, signal),
  save: (b: { scope: VisitorTextScope; lang: string; appid?: string; texts: Record<string, string> }) =>
    post<VisitorTextsDto>('/visitorText/save', b),
};
