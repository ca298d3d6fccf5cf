/**
 * Knowledge base (console /setup/knowlede, code A09_A05_A02; `/api/xiaoe/knowledgeType/*` and
 * `/api/xiaoe/knowledge/*`): a tree of types, items with a standard question, similar questions, a rich-text
 * answer (rich-text.ts), an enabled flag, a validity window and related service topics; a synonym list.
 * Items are found by their questions (jieba words, FTS5 / PostgreSQL full text) — see docs/api.md
 * "Knowledge base".
 */
import { z } from 'zod';
import { exportOptions } from './schemas/exports.js';
import { flag, idField, idList, optionalId, optionalText, requiredText, str } from './schemas/fields.js';
import { intField } from './schemas/channel.js';

export const KNOWLEDGE_CODE = 'A09_A05_A02';

export const KB_LIMITS = {
  typeName: 50,
  question: 200,
  /** Similar questions of one item. */
  similar: 50,
  answer: 5000,
  /** Words of one synonym group, and the length of one word. */
  synonymWords: 20,
  synonymWord: 20,
  synonymGroups: 2000,
  /** Rows of one .xlsx import (all or nothing, in one transaction). */
  importRows: 5000,
  importBytes: 5 * 1024 * 1024,
  /** Items of one batch delete / expsearch by ids. */
  batch: 1000,
  /** The search box of the list. */
  keyword: 100,
} as const;

export interface KbTypeDto {
  id: string;
  name: string;
  /** '' at the top of the tree. */
  parentid: string;
  sortindex: number;
  /** Items filed directly under this type. */
  items: number;
}

export interface KbTopicRef {
  id: string;
  name: string;
}

export interface KbItemDto {
  id: string;
  typeid: string;
  typename: string;
  question: string;
  similar: string[];
  /** Rich text (rich-text.ts): lines, **bold**, [links](https://…) and ![images](https://…). */
  answer: string;
  enabled: boolean;
  /** Validity window (epoch ms, both ends included; null = open). */
  begintime: number | null;
  endtime: number | null;
  /** Enabled and inside its window now: what the robot may answer with. */
  active: boolean;
  topics: KbTopicRef[];
  /** Times the robot answered with it. */
  hits: number;
  creater: string;
  createtime: number;
  updatetime: number;
}

export interface KbSynonymDto {
  id: string;
  /** The words that mean the same; the first one names the group. */
  words: string[];
}

/** `train`: the index rebuilt from the stored items. */
export interface KbTrainResult {
  items: number;
  questions: number;
  ms: number;
}

export interface KbImportResult {
  created: number;
  updated: number;
}

/** The columns of a knowledge .xlsx (template, import, exports), in order. */
export const KB_SHEET_COLUMNS = [
  'id',
  'type',
  'question',
  'similar',
  'answer',
  'enabled',
  'begin',
  'end',
  'topics',
] as const;
export type KbSheetColumn = (typeof KB_SHEET_COLUMNS)[number];

export const KB_SHEET_HEADERS: Record<'zh' | 'en', Record<KbSheetColumn, string>> = {
  zh: {
    id: '编号',
    type: '分类',
    question: '标准问题',
    similar: '相似问题',
    answer: '答案',
    enabled: '启用',
    begin: '生效日期',
    end: '失效日期',
    topics: '服务主题',
  },
  en: {
    id: 'ID',
    type: 'Type',
    question: 'Question',
    similar: 'Similar questions',
    answer: 'Answer',
    enabled: 'Enabled',
    begin: 'Valid from',
    end: 'Valid until',
    topics: 'Topics',
  },
};

/** Enabled cells the import reads as yes / no (any case), besides 1 / 0. */
export const KB_YES_NO = { yes: ['是', 'yes', 'y', 'true', '启用'], no: ['否', 'no', 'n', 'false', '停用'] };

// ---------------------------------------------------------------------------------------------- schemas

/** Calls that take nothing (type list, train, synonym list). */
export const kbNoInput = z.object({});

export const kbTypeSaveSchema = z.object({
  name: requiredText(KB_LIMITS.typeName),
  parentid: optionalId(),
});
export const kbTypeUpdateSchema = kbTypeSaveSchema.extend({ id: idField() });

/** Similar questions: an array, or one text with a question per line. Blank lines are dropped. */
const similarField = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(/\r?\n/) : v),
    z
      .array(str().trim().max(KB_LIMITS.question, 'too_long'), { error: 'invalid_field' })
      .transform((l) => [...new Set(l.filter((s) => s !== ''))])
      .refine((l) => l.length <= KB_LIMITS.similar, 'too_long'),
  );

/** Epoch ms, or '' / null for "open". */
const timeField = () =>
  z.preprocess(
    (v) => (v === '' || v === null ? null : v),
    intField(0, 8_640_000_000_000).nullable().optional(),
  );

const itemFields = {
  typeid: optionalId(),
  question: requiredText(KB_LIMITS.question),
  similar: similarField().optional(),
  answer: requiredText(KB_LIMITS.answer),
  enabled: flag().optional(),
  begintime: timeField(),
  endtime: timeField(),
  topics: idList().optional(),
};
const validWindow = (v: { begintime?: number | null; endtime?: number | null }) =>
  v.begintime == null || v.endtime == null || v.begintime <= v.endtime;

export const kbItemSaveSchema = z
  .object(itemFields)
  .refine(validWindow, { message: 'range_invalid', path: ['endtime'] });
export const kbItemUpdateSchema = z
  .object({ ...itemFields, id: idField() })
  .refine(validWindow, { message: 'range_invalid', path: ['endtime'] });
export type KbItemInput = z.infer<typeof kbItemSaveSchema>;

export const KB_ITEM_STATES = ['active', 'enabled', 'disabled', 'expired'] as const;
export type KbItemState = (typeof KB_ITEM_STATES)[number];

/** The list's filter (also expsearch). `q` matches question, similar questions and answer words. */
export const kbItemListQuery = z.object({
  typeid: optionalText(64),
  q: optionalText(KB_LIMITS.keyword),
  state: z.enum(KB_ITEM_STATES, { error: 'invalid_field' }).optional(),
  topic: optionalText(64),
});
export type KbItemListQuery = z.infer<typeof kbItemListQuery>;

export const kbEnableSchema = z.object({ ids: idList(), enabled: flag() });
export const kbIdsSchema = z.object({ ids: idList().refine((l) => l.length > 0, 'required') });
/** Topic relations of an item: the whole list replaces the stored one. */
export const kbTopicSaveSchema = z.object({ id: idField(), topics: idList() });

export const kbExpSearchSchema = kbItemListQuery.extend(exportOptions.shape);
export const kbExpIdsSchema = exportOptions.extend({
  ids: idList().refine((l) => l.length > 0 && l.length <= KB_LIMITS.batch, 'invalid_field'),
});
/** The import: the sheet plus the reader's offset, in which its dates are read. */
export const kbImportFormSchema = exportOptions.extend({
  file: z.string().meta({ format: 'binary', description: 'the .xlsx (field name `file`)' }),
});
export const kbTemplateQuery = z.object({ lang: z.enum(['zh', 'en']).optional() });

const synonymWords = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(/[\s,，、;；]+/) : v),
    z
      .array(str().trim().max(KB_LIMITS.synonymWord, 'too_long'), { error: 'invalid_field' })
      .transform((l) => [...new Set(l.filter((s) => s !== ''))])
      .refine((l) => l.length >= 2, 'kb_synonym_short')
      .refine((l) => l.length <= KB_LIMITS.synonymWords, 'too_long'),
  );
export const kbSynonymSaveSchema = z.object({ words: synonymWords() });
export const kbSynonymUpdateSchema = z.object({ id: idField(), words: synonymWords() });

/** Agent assist in /dialogue: suggestions for a conversation's latest visitor text, or for a text. */
export const kbSuggestQuery = z.object({
  agentserviceid: optionalText(64),
  q: optionalText(1000),
});

export interface KbSuggestionDto {
  id: string;
  question: string;
  /** The matched question (standard or similar). */
  matched: string;
  answer: string;
  /** Normalised 0–1. */
  score: number;
}

export interface KbSuggestResult {
  /** The text the suggestions are for ('' when the conversation has no visitor text yet). */
  question: string;
  list: KbSuggestionDto[];
}
