import { userDisplayName } from '@kefu/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type {
  QualityAppealTable,
  QualityInspectionTable,
  QualityLabelTable,
  QualityTypeTable,
} from '../../platform/db/schema-quality.js';
import { newId } from '../../platform/ids.js';

/** SQL of the quality module; the services hold the rules. */
export type Kdb = Db['kysely'];
export type TypeRow = Selectable<QualityTypeTable>;
export type LabelRow = Selectable<QualityLabelTable>;
export type InspectionRow = Selectable<QualityInspectionTable>;
export type AppealRow = Selectable<QualityAppealTable>;

export const findType = (k: Kdb, orgi: string, id: string) =>
  k.selectFrom('quality_type').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export const labelsOf = (k: Kdb, typeid: string) =>
  k
    .selectFrom('quality_label')
    .selectAll()
    .where('typeid', '=', typeid)
    .orderBy('sort')
    .orderBy('createtime')
    .execute();

export const findLabel = (k: Kdb, orgi: string, id: string) =>
  k.selectFrom('quality_label').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

/** A change of a card or of one of its items: the next inspection is scored with a new version. */
export const bumpVersion = (k: Kdb, typeid: string, now: number) =>
  k
    .updateTable('quality_type')
    .set((eb) => ({ version: eb('version', '+', 1), updatetime: now }))
    .where('id', '=', typeid)
    .execute();

export const findInspection = (k: Kdb, orgi: string, id: string) =>
  k
    .selectFrom('quality_inspection')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('id', '=', id)
    .executeTakeFirst();

export const itemsOf = (k: Kdb, inspectionid: string) =>
  k.selectFrom('quality_item').selectAll().where('inspectionid', '=', inspectionid).execute();

export const findAppeal = (k: Kdb, orgi: string, id: string) =>
  k.selectFrom('quality_appeal').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

let seq = 0;
/** Event ids sort in the order they were written on a node, also within one millisecond. */
const eventId = (now: number): string =>
  now.toString(16).padStart(12, '0') +
  (seq++ % 0xffffff).toString(16).padStart(6, '0') +
  newId().slice(0, 14);

export async function addEvent(
  k: Kdb,
  e: {
    orgi: string;
    inspectionid: string;
    appealid?: string | null;
    action: string;
    userid: string;
    detail?: string;
  },
  now: number,
): Promise<void> {
  await k
    .insertInto('quality_event')
    .values({
      id: eventId(now),
      orgi: e.orgi,
      inspectionid: e.inspectionid,
      appealid: e.appealid ?? null,
      action: e.action,
      userid: e.userid,
      detail: e.detail ?? '',
      createtime: now,
    })
    .execute();
}

/** What the console shows for a user (the protocol's one rule: uname, nickname, login name). */
export const displayName = userDisplayName;

/** Display names of users. */
export async function userNames(k: Kdb, orgi: string, ids: readonly string[]): Promise<Map<string, string>> {
  const uniq = [...new Set(ids.filter(Boolean))];
  if (!uniq.length) return new Map();
  const rows = await k
    .selectFrom('users')
    .select(['id', 'uname', 'nickname', 'username'])
    .where('orgi', '=', orgi)
    .where('id', 'in', uniq)
    .execute();
  return new Map(rows.map((r) => [r.id, displayName(r)]));
}

export async function organNames(
  k: Kdb,
  orgi: string,
  ids: readonly (string | null)[],
): Promise<Map<string, string>> {
  const uniq = [...new Set(ids.filter((x): x is string => !!x))];
  if (!uniq.length) return new Map();
  const rows = await k
    .selectFrom('organ')
    .select(['id', 'name'])
    .where('orgi', '=', orgi)
    .where('id', 'in', uniq)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Users who may inspect: holders of A11_A01 through a role, and the all-powerful accounts. */
export async function inspectorIds(k: Kdb, orgi: string, code: string): Promise<Set<string>> {
  const viaRole = await k
    .selectFrom('user_role')
    .innerJoin('role_auth', 'role_auth.roleid', 'user_role.roleid')
    .select('user_role.userid')
    .where('user_role.orgi', '=', orgi)
    .where('role_auth.code', '=', code)
    .execute();
  const admins = await k
    .selectFrom('users')
    .select('id')
    .where('orgi', '=', orgi)
    .where((eb) => eb.or([eb('usertype', '=', '0'), eb('superuser', '=', 1)]))
    .execute();
  return new Set([...viaRole.map((r) => r.userid), ...admins.map((r) => r.id)]);
}

export const newRowId = newId;

/** Ended, served conversations of the tenant not allotted to anyone and not excluded from inspection. */
export function candidates(k: Kdb, orgi: string) {
  return k
    .selectFrom('agent_service')
    .leftJoin('quality_conv', 'quality_conv.agentserviceid', 'agent_service.id')
    .where('agent_service.orgi', '=', orgi)
    .where('agent_service.status', '=', 'end')
    .where('agent_service.agentno', 'is not', null)
    .where((eb) => eb.or([eb('quality_conv.excluded', 'is', null), eb('quality_conv.excluded', '=', 0)]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('quality_inspection as qi')
            .select('qi.id')
            .whereRef('qi.agentserviceid', '=', 'agent_service.id'),
        ),
      ),
    );
}

/** `conversation:inspector` of every inspection of these conversations. */
export async function pairsOf(k: Kdb, agentserviceids: readonly string[]): Promise<Set<string>> {
  if (!agentserviceids.length) return new Set();
  const rows = await k
    .selectFrom('quality_inspection')
    .select(['agentserviceid', 'inspector'])
    .where('agentserviceid', 'in', [...agentserviceids])
    .execute();
  return new Set(rows.map((e) => `${e.agentserviceid}:${e.inspector}`));
}
