import {
  CONSULT_DEFAULT,
  DIALOGUE_DEFAULT,
  INFORMATION_DEFAULT,
  INVITE_DEFAULT,
  LEAVEMSG_DEFAULT,
  type ConsultConfig,
  type DialogueConfig,
  type InformationConfig,
  type InviteConfig,
  type LeavemsgConfig,
  type WidgetConfigDto,
  textScopeId,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { notFound } from '../../platform/http/errors.js';
import { opinions, settings } from '../satisfaction/satisfaction.service.js';
import { accessByAppid, listFaq } from './access.repository.js';
import { loadSection } from './settings.repository.js';
import { SECTIONS, type SectionName } from './sections.js';
import { loadSessionConfig } from '../conversation/session-config.js';
import { localizedConfig, localizedLevels, overlay, rowTexts, translated } from '../texts/texts.service.js';
import { textsOfScopes, type Texts } from '../texts/texts.repository.js';

/**
 * Public GET /im/config: the access point's widget settings; unknown appid → 404. Texts are in the
 * widget's language `lang` where set (visitor_text), the base texts otherwise; the welcome is the
 * prompts' (sessionmsg), the only place it is set.
 */
export async function widgetConfig(db: Db, appid: string, lang?: string): Promise<WidgetConfigDto> {
  const k = db.kysely;
  const ap = await accessByAppid(k, appid);
  if (!ap) throw notFound('access_point_not_found');
  const texts = translated(lang)
    ? await textsOfScopes(
        k,
        ap.orgi,
        (['consult', 'invite', 'dialogue', 'leavemsg', 'satisfaction'] as const).map((s) =>
          textScopeId(s, ap.id),
        ),
        lang,
      )
    : new Map<string, Texts>();
  const section = async <T extends Record<string, unknown>>(name: SectionName, fallback: T) =>
    overlay(
      await loadSection<T>(k, ap.orgi, ap.id, SECTIONS[name].section, SECTIONS[name].fields, fallback),
      name === 'information' ? undefined : texts.get(textScopeId(name, ap.id)),
    );
  const [consult, invite, dialogue, information, leavemsg, faq, sat, ops, skills, cfg] = await Promise.all([
    section<ConsultConfig>('consult', CONSULT_DEFAULT),
    section<InviteConfig>('invite', INVITE_DEFAULT),
    section<DialogueConfig>('dialogue', DIALOGUE_DEFAULT),
    section<InformationConfig>('information', INFORMATION_DEFAULT),
    section<LeavemsgConfig>('leavemsg', LEAVEMSG_DEFAULT),
    listFaq(k, ap.orgi, ap.id),
    settings(db, ap.orgi),
    opinions(db, ap.orgi),
    k
      .selectFrom('organ')
      .select(['id', 'name'])
      .where('orgi', '=', ap.orgi)
      .where('skill', '=', 1)
      .orderBy('sortindex')
      .orderBy('createtime')
      .execute(),
    loadSessionConfig(db, ap.orgi).then((c) => localizedConfig(k, c, ap.orgi, lang)),
  ]);
  const opinionTexts = await rowTexts(
    k,
    ap.orgi,
    'opinion',
    ops.map((o) => o.id),
    lang,
  );
  return {
    access: { id: ap.id, name: ap.name, domain: ap.domain },
    consult,
    invite,
    dialogue: { ...dialogue, welcome: cfg.sessionmsg },
    information,
    faq: faq.map((f) => ({ id: f.id, question: f.question, answer: f.answer })),
    satisfaction: {
      enabled: sat.enabled,
      text: cfg.satisftext,
      levels: localizedLevels(sat.levels, texts.get('satisfaction')),
      opinions: ops.map((o) => ({ id: o.id, name: opinionTexts.get(o.id)?.name || o.name })),
      comment: sat.comment,
      multi: sat.multi,
    },
    leavemsg,
    skills: skills.map((o) => ({ id: o.id, name: o.name })),
  };
}
