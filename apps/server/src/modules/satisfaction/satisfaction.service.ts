import { z } from 'zod';
import {
  SATISFACTION_LEVELS_DEFAULT,
  flag,
  textScopeId,
  type OpinionDto,
  type SatisfactionSettingsDto,
  type opinionSaveSchema,
  type opinionSortSchema,
  type opinionUpdateSchema,
  type satisfactionUpdateSchema,
  type visitorRatingSchema,
} from '@kefu/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import type { Principal } from '../../platform/auth/principal.js';
import { deleteOr404, foundOr404, idsFirst } from '../../platform/db/rows.js';
import { nameRepeat, rethrowUnique } from '../../platform/db/unique.js';
import { badRequest, notFound, unauthorized } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { loadSessionConfig, saveSessionConfig } from '../conversation/session-config.js';
import { loadSection, storeSection } from '../access/settings.repository.js';
import { accessByAppid } from '../access/access.repository.js';
import { visitorTokenValid } from '../access/visitor-credential.js';
import * as repo from './satisfaction.repository.js';
import { dropTexts } from '../texts/texts.repository.js';
import { conversationChanged } from '../analysis/hooks.js';
import { webhookEvent } from '../integration/webhook.events.js';

type Kdb = Db['kysely'];

/** Tenant-wide part kept beside session_config (which holds `satisfaction` on/off and `satisftext`). */
const extraFields = z.object({
  multi: flag(),
  comment: flag(),
  levels: z.array(z.string().min(1).max(20)).min(2).max(5),
});
type Extra = z.infer<typeof extraFields>;
const EXTRA_DEFAULT: Extra = { multi: false, comment: true, levels: SATISFACTION_LEVELS_DEFAULT };
const loadExtra = (k: Kdb, orgi: string) =>
  loadSection(k, orgi, '', 'satisfaction', extraFields, EXTRA_DEFAULT);

export async function settings(db: Db, orgi: string): Promise<SatisfactionSettingsDto> {
  const cfg = await loadSessionConfig(db, orgi);
  const extra = await loadExtra(db.kysely, orgi);
  return {
    enabled: cfg.satisfaction,
    text: cfg.satisftext,
    multi: extra.multi,
    comment: extra.comment,
    levels: extra.levels.map((name, i) => ({ value: i + 1, name })),
  };
}

export async function setEnabled(db: Db, p: Principal, enabled: boolean): Promise<SatisfactionSettingsDto> {
  await saveSessionConfig(db, p.orgi, { satisfaction: enabled }, Date.now());
  return settings(db, p.orgi);
}

export async function update(
  db: Db,
  p: Principal,
  input: z.infer<typeof satisfactionUpdateSchema>,
): Promise<SatisfactionSettingsDto> {
  const now = Date.now();
  const cur = await loadExtra(db.kysely, p.orgi);
  const next: Extra = {
    multi: input.multi ?? cur.multi,
    comment: input.comment ?? cur.comment,
    levels: input.levels ?? cur.levels,
  };
  await storeSection(db.kysely, p.orgi, '', 'satisfaction', next, now);
  if (input.text !== undefined) await saveSessionConfig(db, p.orgi, { satisftext: input.text }, now);
  return settings(db, p.orgi);
}

const presentOpinion = (r: repo.OpinionRow): OpinionDto => ({
  id: r.id,
  name: r.name,
  sortindex: r.sortindex,
});

export const opinions = async (db: Db, orgi: string): Promise<OpinionDto[]> =>
  (await repo.listOpinions(db.kysely, orgi)).map(presentOpinion);

export async function opinionDetail(db: Db, p: Principal, id: string): Promise<OpinionDto> {
  return presentOpinion(foundOr404(await repo.findOpinion(db.kysely, p.orgi, id)));
}

const mapUnique = rethrowUnique(nameRepeat);

export async function opinionSave(
  db: Db,
  p: Principal,
  input: z.infer<typeof opinionSaveSchema>,
): Promise<OpinionDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      if (await repo.opinionNameTaken(k, p.orgi, input.name)) throw nameRepeat();
      const now = Date.now();
      const row: repo.OpinionRow = {
        id: newId(),
        orgi: p.orgi,
        name: input.name,
        sortindex: await repo.nextOpinionIndex(k, p.orgi),
        createtime: now,
        updatetime: now,
      };
      await k.insertInto('satis_opinion').values(row).execute();
      return presentOpinion(row);
    })
    .catch(mapUnique);
}

export async function opinionUpdate(
  db: Db,
  p: Principal,
  input: z.infer<typeof opinionUpdateSchema>,
): Promise<OpinionDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const cur = foundOr404(await repo.findOpinion(k, p.orgi, input.id));
      if (await repo.opinionNameTaken(k, p.orgi, input.name, cur.id)) throw nameRepeat();
      const next = { name: input.name, updatetime: Date.now() };
      await k.updateTable('satis_opinion').set(next).where('id', '=', cur.id).execute();
      return presentOpinion({ ...cur, ...next });
    })
    .catch(mapUnique);
}

export async function opinionRemove(db: Db, p: Principal, id: string): Promise<void> {
  await deleteOr404(db.kysely, 'satis_opinion', p.orgi, id);
  await dropTexts(db.kysely, p.orgi, textScopeId('opinion', id));
}

/** New order: the given ids first, in that order, then the others as they were. */
export async function opinionSort(
  db: Db,
  p: Principal,
  input: z.infer<typeof opinionSortSchema>,
): Promise<OpinionDto[]> {
  return db.kysely.transaction().execute(async (k) => {
    const rows = await repo.listOpinions(k, p.orgi);
    const order = idsFirst(
      rows.map((r) => r.id),
      input.ids,
    );
    for (const [i, id] of order.entries()) {
      await k
        .updateTable('satis_opinion')
        .set({ sortindex: i + 1 })
        .where('id', '=', id)
        .execute();
    }
    return (await repo.listOpinions(k, p.orgi)).map(presentOpinion);
  });
}

export interface RatingResult {
  agentserviceid: string;
  level: number;
  times: number;
}

/**
 * The visitor rates a conversation it owns (in service or ended). A second rating replaces the first
 * only when re-rating is allowed (`multi`); otherwise satisfaction_done.
 */
export async function rate(db: Db, input: z.infer<typeof visitorRatingSchema>): Promise<RatingResult> {
  const k = db.kysely;
  const ap = await accessByAppid(k, input.appid);
  if (!ap) throw notFound('access_point_not_found');
  if (!(await visitorTokenValid(k, ap.orgi, input.userid, input.token))) throw unauthorized('visitor_token');
  const s = await k
    .selectFrom('agent_service')
    .selectAll()
    .where('id', '=', input.agentserviceid)
    .executeTakeFirst();
  if (!s || s.userid !== input.userid || s.orgi !== ap.orgi) throw notFound('conversation_not_found');
  return rateConversation(db, s, input);
}

/**
 * Rates a conversation for its visitor (in service or ended): the widget's /im/satis, and a messaging-
 * platform user's reply to the text invitation (modules/channels).
 */
export async function rateConversation(
  db: Db,
  s: Selectable<Database['agent_service']>,
  input: Pick<z.infer<typeof visitorRatingSchema>, 'level' | 'opinions' | 'comment'>,
): Promise<RatingResult> {
  const k = db.kysely;
  if (s.status !== 'inservice' && s.status !== 'end') throw badRequest('satisfaction_not_allowed');
  const st = await settings(db, s.orgi);
  if (!st.enabled) throw badRequest('satisfaction_disabled');
  const level = st.levels.find((l) => l.value === input.level);
  if (!level) throw badRequest('invalid_field', { level: 'invalid_field' });
  const all = await repo.listOpinions(k, s.orgi);
  const picked = [...new Set(input.opinions ?? [])].map((id) => all.find((o) => o.id === id));
  if (picked.some((o) => !o)) throw badRequest('invalid_field', { opinions: 'invalid_field' });
  const opinionsJson = JSON.stringify(picked.map((o) => ({ id: o?.id, name: o?.name })));
  const comment = st.comment ? (input.comment ?? '') : '';
  const now = Date.now();
  // Two first ratings at once: the loser hits the primary key (see the catch).
  return k
    .transaction()
    .execute(async (trx) => {
      const prev = await repo.findRating(trx, s.id);
      if (prev && !st.multi) throw badRequest('satisfaction_done');
      const fields = {
        level: level.value,
        levelname: level.name,
        opinions: opinionsJson,
        comment,
        updatetime: now,
      };
      if (prev) {
        await trx
          .updateTable('satis_rating')
          .set({ ...fields, times: prev.times + 1 })
          .where('agentserviceid', '=', s.id)
          .execute();
      } else {
        await trx
          .insertInto('satis_rating')
          .values({
            agentserviceid: s.id,
            orgi: s.orgi,
            userid: s.userid,
            agentno: s.agentno,
            createtime: now,
            ...fields,
          })
          .execute();
      }
      await trx
        .updateTable('agent_service')
        .set({ satisfaction: 1, satislevel: String(level.value), satiscomment: comment, satistime: now })
        .where('id', '=', s.id)
        .execute();
      return { agentserviceid: s.id, level: level.value, times: (prev?.times ?? 0) + 1 };
    })
    .then((r) => {
      conversationChanged(db, s.orgi, s.id);
      webhookEvent(db, s.orgi, 'satisfaction.created', {
        ...r,
        userid: s.userid,
        agentno: s.agentno,
        comment,
      });
      return r;
    })
    .catch(rethrowUnique(() => badRequest('satisfaction_done')));
}
