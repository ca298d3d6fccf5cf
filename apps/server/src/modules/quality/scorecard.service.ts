import type { z } from 'zod';
import {
  QUALITY_DEFAULTS,
  QUALITY_LIMITS,
  type QualityLabelDto,
  type QualityLabelTypeDto,
  type QualityScorecardDto,
  type QualitySettingsDto,
  type QualitySkillCardDto,
  type qualityLabelSaveSchema,
  type qualityLabelTypeSaveSchema,
  type qualityLabelTypeUpdateSchema,
  type qualityLabelUpdateSchema,
  type qualitySettingsSchema,
  type qualitySkillSaveSchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { orgSettings } from '../../platform/settings/org-settings.js';
import { presentLabel, presentType } from './quality.presenter.js';
import * as repo from './quality.repository.js';
import type { Kdb } from './quality.repository.js';

/** Scorecards (label types), their items (labels), versions, skill-group binding and settings (A09_A03_A12). */

export const SETTINGS = 'quality.settings';

export function readSettings(raw: unknown): QualitySettingsDto {
  const r = (raw ?? {}) as Partial<QualitySettingsDto>;
  const n = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    appealDays: n(r.appealDays, QUALITY_DEFAULTS.appealDays),
    remindHours: n(r.remindHours, QUALITY_DEFAULTS.remindHours),
    firstResponseSec: n(r.firstResponseSec, QUALITY_DEFAULTS.firstResponseSec),
    silenceSec: n(r.silenceSec, QUALITY_DEFAULTS.silenceSec),
    longWaitSec: n(r.longWaitSec, QUALITY_DEFAULTS.longWaitSec),
    lowSatisfaction: n(r.lowSatisfaction, 4),
    greetings: list(r.greetings),
    closings: list(r.closings),
    aiSuggest: r.aiSuggest === true,
  };
}

export const settings = async (db: Db, orgi: string): Promise<QualitySettingsDto> =>
  (await orgSettings(db).get(orgi, SETTINGS, readSettings)).value;

export async function saveSettings(
  db: Db,
  p: Principal,
  input: z.output<typeof qualitySettingsSchema>,
): Promise<QualitySettingsDto> {
  const before = await settings(db, p.orgi);
  const next: QualitySettingsDto = { ...before };
  for (const [key, v] of Object.entries(input)) if (v !== undefined) Object.assign(next, { [key]: v });
  await orgSettings(db).save(p.orgi, SETTINGS, next);
  return next;
}

// ---------------------------------------------------------------- cards (label types)

async function typeOrThrow(k: Kdb, orgi: string, id: string): Promise<repo.TypeRow> {
  const t = await repo.findType(k, orgi, id);
  if (!t) throw notFound();
  return t;
}

async function nameFree(k: Kdb, orgi: string, name: string, except?: string): Promise<void> {
  let q = k.selectFrom('quality_type').select('id').where('orgi', '=', orgi).where('name', '=', name);
  if (except) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw badRequest('name_repeat', { name: 'name_repeat' });
}

export async function listTypes(db: Db, p: Principal): Promise<QualityLabelTypeDto[]> {
  const k = db.kysely;
  const [types, counts] = await Promise.all([
    k
      .selectFrom('quality_type')
      .selectAll()
      .where('orgi', '=', p.orgi)
      .orderBy('sort')
      .orderBy('createtime')
      .execute(),
    k
      .selectFrom('quality_label')
      .select(['typeid', (eb) => eb.fn.countAll<number>().as('n')])
      .where('orgi', '=', p.orgi)
      .groupBy('typeid')
      .execute(),
  ]);
  const n = new Map(counts.map((c) => [c.typeid, Number(c.n)]));
  return types.map((t) => presentType(t, n.get(t.id) ?? 0));
}

/** The form of a card: the card with its current items (what the next inspection would use). */
export async function typeForm(db: Db, p: Principal, id: string): Promise<QualityScorecardDto> {
  const t = await typeOrThrow(db.kysely, p.orgi, id);
  const items = await repo.labelsOf(db.kysely, t.id);
  return {
    typeid: t.id,
    versionid: '',
    version: t.version,
    name: t.name,
    base: t.base,
    passmark: t.passmark,
    items: items.map(presentLabel),
  };
}

const checkMarks = (base: number, passmark: number) => {
  if (passmark > base) throw badRequest('invalid_field', { passmark: 'invalid_field' });
};

export async function saveType(
  db: Db,
  p: Principal,
  b: z.output<typeof qualityLabelTypeSaveSchema>,
): Promise<QualityLabelTypeDto> {
  checkMarks(b.base, b.passmark);
  const now = Date.now();
  const id = newId();
  await db.kysely.transaction().execute(async (trx) => {
    await nameFree(trx, p.orgi, b.name);
    const first = !(await trx
      .selectFrom('quality_type')
      .select('id')
      .where('orgi', '=', p.orgi)
      .executeTakeFirst());
    // The first card is the default until another is chosen.
    const isdefault = b.isdefault ?? first;
    if (isdefault)
      await trx.updateTable('quality_type').set({ isdefault: 0 }).where('orgi', '=', p.orgi).execute();
    await trx
      .insertInto('quality_type')
      .values({
        id,
        orgi: p.orgi,
        name: b.name,
        base: b.base,
        passmark: b.passmark,
        isdefault: isdefault ? 1 : 0,
        version: 1,
        sort: b.sort,
        createtime: now,
        updatetime: now,
      })
      .execute();
  });
  return presentType((await repo.findType(db.kysely, p.orgi, id))!, 0);
}

export async function updateType(
  db: Db,
  p: Principal,
  b: z.output<typeof qualityLabelTypeUpdateSchema>,
): Promise<QualityLabelTypeDto> {
  const now = Date.now();
  await db.kysely.transaction().execute(async (trx) => {
    const t = await typeOrThrow(trx, p.orgi, b.id);
    if (b.name !== undefined) await nameFree(trx, p.orgi, b.name, t.id);
    checkMarks(b.base ?? t.base, b.passmark ?? t.passmark);
    if (b.isdefault)
      await trx.updateTable('quality_type').set({ isdefault: 0 }).where('orgi', '=', p.orgi).execute();
    await trx
      .updateTable('quality_type')
      .set({
        name: b.name ?? t.name,
        base: b.base ?? t.base,
        passmark: b.passmark ?? t.passmark,
        sort: b.sort ?? t.sort,
        ...(b.isdefault !== undefined ? { isdefault: b.isdefault ? 1 : 0 } : {}),
        version: t.version + 1,
        updatetime: now,
      })
      .where('id', '=', t.id)
      .execute();
  });
  const items = await repo.labelsOf(db.kysely, b.id);
  return presentType((await repo.findType(db.kysely, p.orgi, b.id))!, items.length);
}

/** Deletes a card and its items; inspections scored with it keep their frozen versions. */
export async function deleteType(db: Db, p: Principal, id: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await typeOrThrow(trx, p.orgi, id);
    if (await trx.selectFrom('quality_skill').select('organ').where('typeid', '=', id).executeTakeFirst())
      throw badRequest('quality_type_in_use');
    await trx.deleteFrom('quality_label').where('typeid', '=', id).execute();
    await trx.deleteFrom('quality_type').where('id', '=', id).execute();
  });
}

// ---------------------------------------------------------------- items (labels)

export async function listLabels(db: Db, p: Principal, typeid: string): Promise<QualityLabelDto[]> {
  await typeOrThrow(db.kysely, p.orgi, typeid);
  return (await repo.labelsOf(db.kysely, typeid)).map(presentLabel);
}

export async function labelForm(db: Db, p: Principal, id: string): Promise<QualityLabelDto> {
  const l = await repo.findLabel(db.kysely, p.orgi, id);
  if (!l) throw notFound();
  return presentLabel(l);
}

/** Only deduct items can be fatal (a bonus cannot fail a conversation). */
const fatalOf = (kind: string, fatal: boolean) => {
  if (fatal && kind !== 'deduct') throw badRequest('invalid_field', { fatal: 'invalid_field' });
  return fatal ? 1 : 0;
};

export async function saveLabel(
  db: Db,
  p: Principal,
  b: z.output<typeof qualityLabelSaveSchema>,
): Promise<QualityLabelDto> {
  const now = Date.now();
  const id = newId();
  await db.kysely.transaction().execute(async (trx) => {
    await typeOrThrow(trx, p.orgi, b.typeid);
    const items = await repo.labelsOf(trx, b.typeid);
    if (items.length >= QUALITY_LIMITS.itemsPerCard) throw badRequest('too_long');
    if (items.some((l) => l.name === b.name)) throw badRequest('name_repeat', { name: 'name_repeat' });
    await trx
      .insertInto('quality_label')
      .values({
        id,
        orgi: p.orgi,
        typeid: b.typeid,
        groupname: b.groupname,
        name: b.name,
        description: b.description,
        kind: b.kind,
        points: b.points,
        fatal: fatalOf(b.kind, b.fatal),
        sort: b.sort,
        createtime: now,
        updatetime: now,
      })
      .execute();
    await repo.bumpVersion(trx, b.typeid, now);
  });
  return presentLabel((await repo.findLabel(db.kysely, p.orgi, id))!);
}

export async function updateLabel(
  db: Db,
  p: Principal,
  b: z.output<typeof qualityLabelUpdateSchema>,
): Promise<QualityLabelDto> {
  const now = Date.now();
  await db.kysely.transaction().execute(async (trx) => {
    const l = await repo.findLabel(trx, p.orgi, b.id);
    if (!l) throw notFound();
    if (b.name !== undefined && b.name !== l.name) {
      const items = await repo.labelsOf(trx, l.typeid);
      if (items.some((x) => x.name === b.name)) throw badRequest('name_repeat', { name: 'name_repeat' });
    }
    const kind = b.kind ?? l.kind;
    await trx
      .updateTable('quality_label')
      .set({
        groupname: b.groupname ?? l.groupname,
        name: b.name ?? l.name,
        description: b.description ?? l.description,
        kind,
        points: b.points ?? l.points,
        fatal: fatalOf(kind, b.fatal ?? l.fatal === 1),
        sort: b.sort ?? l.sort,
        updatetime: now,
      })
      .where('id', '=', l.id)
      .execute();
    await repo.bumpVersion(trx, l.typeid, now);
  });
  return presentLabel((await repo.findLabel(db.kysely, p.orgi, b.id))!);
}

export async function deleteLabel(db: Db, p: Principal, id: string): Promise<void> {
  const now = Date.now();
  await db.kysely.transaction().execute(async (trx) => {
    const l = await repo.findLabel(trx, p.orgi, id);
    if (!l) throw notFound();
    await trx.deleteFrom('quality_label').where('id', '=', id).execute();
    await repo.bumpVersion(trx, l.typeid, now);
  });
}

// ---------------------------------------------------------------- versions and binding

/**
 * The frozen version of a card's current state: its row is written the first time an inspection needs it
 * (edits only bump the number, so a card edited ten times before use stores one version).
 */
export async function currentCard(k: Kdb, orgi: string, typeid: string): Promise<QualityScorecardDto> {
  const t = await typeOrThrow(k, orgi, typeid);
  const have = await k
    .selectFrom('quality_card_version')
    .selectAll()
    .where('typeid', '=', typeid)
    .where('version', '=', t.version)
    .executeTakeFirst();
  if (have) return JSON.parse(have.card) as QualityScorecardDto;
  const items = await repo.labelsOf(k, typeid);
  const card: QualityScorecardDto = {
    typeid,
    versionid: newId(),
    version: t.version,
    name: t.name,
    base: t.base,
    passmark: t.passmark,
    items: items.map(presentLabel),
  };
  const inserted = await k
    .insertInto('quality_card_version')
    .values({
      id: card.versionid,
      orgi,
      typeid,
      version: t.version,
      card: JSON.stringify(card),
      createtime: Date.now(),
    })
    .onConflict((oc) => oc.columns(['typeid', 'version']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return currentCard(k, orgi, typeid);
  return card;
}

export async function cardVersion(k: Kdb, versionid: string): Promise<QualityScorecardDto> {
  const v = await k
    .selectFrom('quality_card_version')
    .select('card')
    .where('id', '=', versionid)
    .executeTakeFirstOrThrow();
  return JSON.parse(v.card) as QualityScorecardDto;
}

/** The card of each skill group (organ) given; organs without one get the default card ('' key too). */
export async function cardsFor(
  k: Kdb,
  orgi: string,
  organs: ReadonlyArray<string | null>,
): Promise<Map<string, string>> {
  const keys = [...new Set(organs.filter((o): o is string => !!o))];
  const [bound, def] = await Promise.all([
    keys.length
      ? k
          .selectFrom('quality_skill')
          .select(['organ', 'typeid'])
          .where('orgi', '=', orgi)
          .where('organ', 'in', keys)
          .execute()
      : Promise.resolve([]),
    k
      .selectFrom('quality_type')
      .select('id')
      .where('orgi', '=', orgi)
      .orderBy('isdefault', 'desc')
      .orderBy('sort')
      .orderBy('createtime')
      .executeTakeFirst(),
  ]);
  const out = new Map<string, string>();
  for (const b of bound) out.set(b.organ, b.typeid);
  if (def) {
    out.set('', def.id);
    for (const o of keys) if (!out.has(o)) out.set(o, def.id);
  }
  return out;
}

export async function skillCards(db: Db, p: Principal): Promise<QualitySkillCardDto[]> {
  const rows = await db.kysely
    .selectFrom('organ')
    .leftJoin('quality_skill', 'quality_skill.organ', 'organ.id')
    .select(['organ.id', 'organ.name', 'quality_skill.typeid'])
    .where('organ.orgi', '=', p.orgi)
    .where('organ.skill', '=', 1)
    .orderBy('organ.name')
    .execute();
  return rows.map((r) => ({ organ: r.id, name: r.name, typeid: r.typeid ?? null }));
}

export async function saveSkillCard(
  db: Db,
  p: Principal,
  b: z.output<typeof qualitySkillSaveSchema>,
): Promise<QualitySkillCardDto> {
  const k = db.kysely;
  const organ = await k
    .selectFrom('organ')
    .select(['id', 'name', 'skill'])
    .where('orgi', '=', p.orgi)
    .where('id', '=', b.organ)
    .executeTakeFirst();
  if (!organ || organ.skill !== 1) throw badRequest('invalid_field', { organ: 'invalid_field' });
  if (b.typeid) await typeOrThrow(k, p.orgi, b.typeid);
  await k.transaction().execute(async (trx) => {
    await trx.deleteFrom('quality_skill').where('organ', '=', organ.id).execute();
    if (b.typeid)
      await trx
        .insertInto('quality_skill')
        .values({ organ: organ.id, orgi: p.orgi, typeid: b.typeid, updatetime: Date.now() })
        .execute();
  });
  return { organ: organ.id, name: organ.name, typeid: b.typeid ?? null };
}
