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
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { notFound } from '../../platform/http/errors.js';
import { opinions, settings } from '../satisfaction/satisfaction.service.js';
import { accessByAppid, listFaq } from './access.repository.js';
import { loadSection } from './settings.repository.js';
import { SECTIONS, type SectionName } from './sections.js';

/** Public GET /im/config: the access point's widget settings; unknown appid → 404. */
export async function widgetConfig(db: Db, appid: string): Promise<WidgetConfigDto> {
  const k = db.kysely;
  const ap = await accessByAppid(k, appid);
  if (!ap) throw notFound('access_point_not_found');
  const section = <T extends Record<string, unknown>>(name: SectionName, fallback: T) =>
    loadSection<T>(k, ap.orgi, ap.id, SECTIONS[name].section, SECTIONS[name].fields, fallback);
  const [consult, invite, dialogue, information, leavemsg, faq, sat, ops, skills] = await Promise.all([
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
  ]);
  return {
    access: { id: ap.id, name: ap.name, domain: ap.domain },
    consult,
    invite,
    dialogue,
    information,
    faq: faq.map((f) => ({ id: f.id, question: f.question, answer: f.answer })),
    satisfaction: {
      enabled: sat.enabled,
      text: sat.text,
      levels: sat.levels,
      opinions: ops.map((o) => ({ id: o.id, name: o.name })),
      comment: sat.comment,
      multi: sat.multi,
    },
    leavemsg,
    skills: skills.map((o) => ({ id: o.id, name: o.name })),
  };
}
