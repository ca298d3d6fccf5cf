import type { VisitorTextScope, VisitorTextsDto } from '@kefu/protocol';
import { get, post } from '../../lib/api';

/** Visitor-facing texts in languages other than the base texts (GET/POST /api/visitorText). */
/** A scope's texts in one language: `appid` names a widget scope's site, `rowid` a row scope's row. */
interface TextsOf {
  scope: VisitorTextScope;
  lang: string;
  appid?: string;
  rowid?: string;
}

export const textsApi = {
  load: (q: TextsOf, signal?: AbortSignal) => get<VisitorTextsDto>('/visitorText', { ...q }, signal),
  save: (b: TextsOf & { texts: Record<string, string> }) => post<VisitorTextsDto>('/visitorText/save', b),
};
