import type { z } from 'zod';
import type {
  AccessCodeDto,
  AccessPointDto,
  FaqItemDto,
  accessSaveSchema,
  accessUpdateSchema,
  problemSaveSchema,
  problemSortSchema,
  problemUpdateSchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { deleteOr404, foundOr404, idsFirst } from '../../platform/db/rows.js';
import { nameRepeat } from '../../platform/db/unique.js';
import { badRequest } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import * as repo from './access.repository.js';
import { embedCode, presentAccess, presentFaq } from './access.presenter.js';
import { loadSection, removeSection, storeSection } from './settings.repository.js';
import { SECTIONS, type SectionName } from './sections.js';
import { forgetAccessOrigins } from './origins.js';

type Kdb = Db['kysely'];

export async function list(db: Db, p: Principal): Promise<AccessPointDto[]> {
  return (await repo.listAccess(db.kysely, p.orgi)).map((r) => presentAccess(r, r.organname));
}

async function checkFields(
  k: Kdb,
  orgi: string,
  name: string,
  organ: string | null | undefined,
  id?: string,
) {
  if (await repo.nameTaken(k, orgi, name, id)) throw nameRepeat();
  if (organ && !(await repo.organExists(k, orgi, organ)))
    throw badRequest('invalid_field', { organ: 'invalid_field' });
}

/** The access id is the widget's appid: 32 random characters, never guessable from the name. */
export async function save(
  db: Db,
  p: Principal,
  input: z.infer<typeof accessSaveSchema>,
): Promise<AccessPointDto> {
  const saved = await db.kysely.transaction().execute(async (k) => {
    await checkFields(k, p.orgi, input.name, input.organ);
    const now = Date.now();
    const row: repo.AccessRow = {
      id: newId(),
      orgi: p.orgi,
      name: input.name,
      domain: input.domain,
      organ: input.organ ?? null,
      createtime: now,
      updatetime: now,
    };
    await k.insertInto('access_point').values(row).execute();
    return presentAccess(row);
  });
  forgetAccessOrigins(db); // its domain is a CORS origin now
  return saved;
}

export async function update(
  db: Db,
  p: Principal,
  input: z.infer<typeof accessUpdateSchema>,
): Promise<AccessPointDto> {
  const updated = await db.kysely.transaction().execute(async (k) => {
    const cur = await own(k, p, input.id);
    await checkFields(k, p.orgi, input.name, input.organ, input.id);
    const next = {
      name: input.name,
      domain: input.domain,
      organ: input.organ === undefined ? cur.organ : input.organ,
      updatetime: Date.now(),
    };
    await k.updateTable('access_point').set(next).where('id', '=', cur.id).execute();
    return presentAccess({ ...cur, ...next });
  });
  forgetAccessOrigins(db);
  return updated;
}

/** Removes the access point with its settings and FAQ; past conversations keep their appid. */
export async function remove(db: Db, p: Principal, id: string): Promise<void> {
  await db.kysely.transaction().execute(async (k) => {
    await own(k, p, id);
    await removeSection(k, p.orgi, id);
    await k.deleteFrom('access_faq').where('orgi', '=', p.orgi).where('appid', '=', id).execute();
    await k.deleteFrom('access_point').where('id', '=', id).execute();
  });
  forgetAccessOrigins(db);
}

export async function accessCode(db: Db, p: Principal, id: string, origin: string): Promise<AccessCodeDto> {
  await own(db.kysely, p, id);
  return { appid: id, code: embedCode(origin, id) };
}

async function own(k: Kdb, p: Principal, appid: string) {
  return foundOr404(await repo.findAccess(k, p.orgi, appid), 'access_point_not_found');
}

export async function getSection(db: Db, p: Principal, name: SectionName, appid: string) {
  await own(db.kysely, p, appid);
  const def = SECTIONS[name];
  return loadSection(db.kysely, p.orgi, appid, def.section, def.fields, def.fallback);
}

/** Partial update: the given keys over the stored (or default) document, validated as a whole. */
export async function saveSection(
  db: Db,
  p: Principal,
  name: SectionName,
  input: Record<string, unknown> & { appid: string },
): Promise<Record<string, unknown>> {
  const def: (typeof SECTIONS)[SectionName] = SECTIONS[name];
  return db.kysely.transaction().execute(async (k) => {
    await own(k, p, input.appid);
    const cur = await loadSection(k, p.orgi, input.appid, def.section, def.fields, def.fallback);
    const { appid, ...patch } = input;
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    let next: Record<string, unknown> = { ...cur, ...defined };
    if ('normalise' in def) next = def.normalise(next);
    await storeSection(k, p.orgi, appid, def.section, next, Date.now());
    return next;
  });
}

export async function resetSection(db: Db, p: Principal, name: SectionName, appid: string) {
  await own(db.kysely, p, appid);
  await removeSection(db.kysely, p.orgi, appid, SECTIONS[name].section);
  return SECTIONS[name].fallback;
}

export async function faqList(db: Db, p: Principal, appid: string): Promise<FaqItemDto[]> {
  await own(db.kysely, p, appid);
  return (await repo.listFaq(db.kysely, p.orgi, appid)).map(presentFaq);
}

export async function faqSave(
  db: Db,
  p: Principal,
  input: z.infer<typeof problemSaveSchema>,
): Promise<FaqItemDto> {
  return db.kysely.transaction().execute(async (k) => {
    await own(k, p, input.appid);
    const now = Date.now();
    const row: repo.FaqRow = {
      id: newId(),
      orgi: p.orgi,
      appid: input.appid,
      question: input.question,
      answer: input.answer,
      sortindex: await repo.nextFaqIndex(k, input.appid),
      createtime: now,
      updatetime: now,
    };
    await k.insertInto('access_faq').values(row).execute();
    return presentFaq(row);
  });
}

export async function faqUpdate(
  db: Db,
  p: Principal,
  input: z.infer<typeof problemUpdateSchema>,
): Promise<FaqItemDto> {
  const k = db.kysely;
  const cur = foundOr404(await repo.findFaq(k, p.orgi, input.id));
  const next = { question: input.question, answer: input.answer, updatetime: Date.now() };
  await k.updateTable('access_faq').set(next).where('id', '=', cur.id).execute();
  return presentFaq({ ...cur, ...next });
}

export async function faqRemove(db: Db, p: Principal, id: string): Promise<void> {
  await deleteOr404(db.kysely, 'access_faq', p.orgi, id);
}

/** New order = the given ids first (in that order), then the rest as they were. */
export async function faqSort(
  db: Db,
  p: Principal,
  input: z.infer<typeof problemSortSchema>,
): Promise<FaqItemDto[]> {
  return db.kysely.transaction().execute(async (k) => {
    await own(k, p, input.appid);
    const rows = await repo.listFaq(k, p.orgi, input.appid);
    const order = idsFirst(
      rows.map((r) => r.id),
      input.ids,
    );
    for (const [i, id] of order.entries()) {
      await k
        .updateTable('access_faq')
        .set({ sortindex: i + 1 })
        .where('id', '=', id)
        .execute();
    }
    return (await repo.listFaq(k, p.orgi, input.appid)).map(presentFaq);
  });
}
