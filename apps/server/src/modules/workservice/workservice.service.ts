import type { z } from 'zod';
import {
  DEFAULT_TIMEZONE,
  isOpenAt,
  textScopeId,
  type WorkScheduleDto,
  type workSaveSchema,
  type workUpdateSchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { deleteOr404, foundOr404 } from '../../platform/db/rows.js';
import { rethrowUnique } from '../../platform/db/unique.js';
import { badRequest } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import * as repo from './workservice.repository.js';
import { dropTexts } from '../texts/texts.repository.js';
import type { Sql } from '../conversation/hot-sql.js';
import { presentWork, toSchedule } from './workservice.presenter.js';

type Kdb = Db['kysely'];
type SaveInput = z.infer<typeof workSaveSchema>;

export const DEFAULT_NOT_IN_WORK_MSG = '您好，现在是非工作时间，请您留言，我们会在工作时间尽快联系您。';

export async function list(db: Db, p: Principal, organ?: string | 'dept'): Promise<WorkScheduleDto[]> {
  return (await repo.listWork(db.kysely, p.orgi, organ)).map((r) => presentWork(r, r.organname));
}

export async function detail(db: Db, p: Principal, id: string): Promise<WorkScheduleDto> {
  const r = foundOr404(await repo.findWork(db.kysely, p.orgi, id));
  return presentWork(r, r.organ ? await repo.organName(db.kysely, p.orgi, r.organ) : null);
}

/** One schedule per department (or for the organisation): a second one is group_bound. */
const bound = () => badRequest('group_bound', { organ: 'group_bound' });

async function organOf(k: Kdb, orgi: string, organ: string | null | undefined): Promise<string> {
  if (!organ) return '';
  if ((await repo.organName(k, orgi, organ)) === null)
    throw badRequest('invalid_field', { organ: 'invalid_field' });
  return organ;
}

const fields = (input: SaveInput, organ: string) => ({
  name: input.name,
  organ,
  enabled: input.enabled === false ? 0 : 1,
  timezone: input.timezone || DEFAULT_TIMEZONE,
  notinwhmsg: input.notinwhmsg ?? DEFAULT_NOT_IN_WORK_MSG,
  weekly: JSON.stringify([...input.weekly].sort((a, b) => a.day - b.day)),
  holidays: JSON.stringify(input.holidays ?? []),
  workdays: JSON.stringify(input.workdays ?? []),
});

export async function save(db: Db, p: Principal, input: SaveInput): Promise<WorkScheduleDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const organ = await organOf(k, p.orgi, input.organ);
      if (await repo.workOfOrgan(k, p.orgi, organ)) throw bound();
      const now = Date.now();
      const row: repo.WorkRow = {
        id: newId(),
        orgi: p.orgi,
        ...fields(input, organ),
        createtime: now,
        updatetime: now,
      };
      await k.insertInto('work_service').values(row).execute();
      return presentWork(row, organ ? await repo.organName(k, p.orgi, organ) : null);
    })
    .catch(mapUnique);
}

export async function update(
  db: Db,
  p: Principal,
  input: z.infer<typeof workUpdateSchema>,
): Promise<WorkScheduleDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const cur = foundOr404(await repo.findWork(k, p.orgi, input.id));
      const organ = input.organ === undefined ? cur.organ : await organOf(k, p.orgi, input.organ);
      const other = await repo.workOfOrgan(k, p.orgi, organ);
      if (other && other.id !== cur.id) throw bound();
      const next = {
        ...fields({ ...input, enabled: input.enabled ?? cur.enabled === 1 }, organ),
        updatetime: Date.now(),
      };
      await k.updateTable('work_service').set(next).where('id', '=', cur.id).execute();
      return presentWork({ ...cur, ...next }, organ ? await repo.organName(k, p.orgi, organ) : null);
    })
    .catch(mapUnique);
}

const mapUnique = rethrowUnique(bound);

export async function remove(db: Db, p: Principal, id: string): Promise<void> {
  await deleteOr404(db.kysely, 'work_service', p.orgi, id);
  await dropTexts(db.kysely, p.orgi, textScopeId('workingHours', id));
}

export async function setEnabled(
  db: Db,
  p: Principal,
  id: string,
  enabled: boolean,
): Promise<WorkScheduleDto> {
  const k = db.kysely;
  const cur = foundOr404(await repo.findWork(k, p.orgi, id));
  const next = { enabled: enabled ? 1 : 0, updatetime: Date.now() };
  await k.updateTable('work_service').set(next).where('id', '=', id).execute();
  return presentWork({ ...cur, ...next }, cur.organ ? await repo.organName(k, p.orgi, cur.organ) : null);
}

export interface WorkTimeDecision {
  open: boolean;
  /** The not-in-hours text of the schedule that decided (when closed), in the base language. */
  message: string;
  /** The schedule that decided (its texts in other languages: texts module, scope workingHours). */
  schedule?: string;
}

/**
 * The department's own schedule decides; without one, the organisation-wide schedule; without
 * either (or when the deciding one is switched off) the service is open.
 */
export const workTimeDecision = (
  db: Db,
  orgi: string,
  organId: string | null,
  at: number,
): Promise<WorkTimeDecision> => workTimeDecisionOn(db.kysely, orgi, organId, at);

/** workTimeDecision on a given connection (see conversation/hot-sql withConnection). */
export async function workTimeDecisionOn(
  k: Sql,
  orgi: string,
  organId: string | null,
  at: number,
): Promise<WorkTimeDecision> {
  const row =
    (organId ? await repo.workOfOrgan(k, orgi, organId) : undefined) ?? (await repo.workOfOrgan(k, orgi, ''));
  if (!row) return { open: true, message: '' };
  return {
    open: isOpenAt(toSchedule(row), at),
    message: row.notinwhmsg || DEFAULT_NOT_IN_WORK_MSG,
    schedule: row.id,
  };
}

export async function isInWorkTime(
  db: Db,
  orgi: string,
  organId: string | null,
  at: number,
): Promise<boolean> {
  return (await workTimeDecision(db, orgi, organId, at)).open;
}
