import { ROBOT_DEFAULTS, type RobotDto, type RobotSaveInput, type WebimAiDto } from '@kefu/protocol';
import type { z } from 'zod';
import type { robotUpdateSchema } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { Db } from '../../platform/db/database.js';
import { nameRepeat, rethrowUnique } from '../../platform/db/unique.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import * as repo from './robot.repository.js';
import { PER_MILLE, presentRobot } from './robot.presenter.js';

type Kdb = Db['kysely'];

/** Robots (/api/xiaoe/config/*, A09_A05_A01) and their access points (/api/webim/ai). */

export async function list(db: Db, p: Principal): Promise<RobotDto[]> {
  const [rows, bound] = await Promise.all([
    repo.listRobots(db.kysely, p.orgi),
    repo.bindingsOf(db.kysely, p.orgi),
  ]);
  return rows.map((r) => presentRobot(r, bound.get(r.id) ?? []));
}

export async function detail(db: Db, p: Principal, id: string): Promise<RobotDto> {
  const r = await repo.findRobot(db.kysely, p.orgi, id);
  if (!r) throw notFound();
  return presentRobot(r, (await repo.bindingsOf(db.kysely, p.orgi)).get(r.id) ?? []);
}

const perMille = (v: number | undefined) => (v === undefined ? undefined : Math.round(v * PER_MILLE));

async function checkTypes(k: Kdb, orgi: string, ids: readonly string[] | undefined): Promise<void> {
  if (!ids?.length) return;
  const known = new Set(
    (
      await k.selectFrom('kb_type').select('id').where('orgi', '=', orgi).where('id', 'in', ids).execute()
    ).map((t) => t.id),
  );
  if (ids.some((id) => !known.has(id))) throw badRequest('invalid_field', { kbtypes: 'invalid_field' });
}

/** The stored columns of the fields a save or update sends (absent: keep). */
function columns(input: Partial<RobotSaveInput>) {
  const out: Record<string, unknown> = {};
  const set = (col: string, v: unknown) => {
    if (v !== undefined) out[col] = v;
  };
  set('name', input.name);
  set('avatar', input.avatar);
  set('welcome', input.welcome);
  set('fallback', input.fallback);
  set('suggestmsg', input.suggestmsg);
  set('handoffmsg', input.handoffmsg);
  set('answer_score', perMille(input.answerThreshold));
  set('suggest_score', perMille(input.suggestThreshold));
  set('handoff_fallbacks', input.handoffFallbacks);
  set('handoff_keywords', input.handoffKeywords && JSON.stringify(input.handoffKeywords));
  set('handoff_button', input.handoffButton === undefined ? undefined : input.handoffButton ? 1 : 0);
  set('kbtypes', input.kbtypes && JSON.stringify(input.kbtypes));
  set('enabled', input.enabled === undefined ? undefined : input.enabled ? 1 : 0);
  return out;
}

export async function save(db: Db, p: Principal, input: RobotSaveInput): Promise<RobotDto> {
  const now = Date.now();
  const row: repo.RobotRow = {
    id: newId(),
    orgi: p.orgi,
    name: input.name,
    avatar: '',
    welcome: ROBOT_DEFAULTS.welcome,
    fallback: ROBOT_DEFAULTS.fallback,
    suggestmsg: ROBOT_DEFAULTS.suggestmsg,
    handoffmsg: ROBOT_DEFAULTS.handoffmsg,
    answer_score: Math.round(ROBOT_DEFAULTS.answerThreshold * PER_MILLE),
    suggest_score: Math.round(ROBOT_DEFAULTS.suggestThreshold * PER_MILLE),
    handoff_fallbacks: ROBOT_DEFAULTS.handoffFallbacks,
    handoff_keywords: '[]',
    handoff_button: 1,
    kbtypes: '[]',
    enabled: 1,
    createtime: now,
    updatetime: now,
    ...(columns(input) as Partial<repo.RobotRow>),
  };
  if (row.suggest_score > row.answer_score)
    throw badRequest('robot_thresholds', { suggestThreshold: 'robot_thresholds' });
  await db.kysely
    .transaction()
    .execute(async (k) => {
      if (await repo.nameTaken(k, p.orgi, row.name)) throw nameRepeat();
      await checkTypes(k, p.orgi, input.kbtypes);
      await k.insertInto('robot').values(row).execute();
    })
    .catch(rethrowUnique(() => nameRepeat()));
  return presentRobot(row, []);
}

export async function update(
  db: Db,
  p: Principal,
  input: z.infer<typeof robotUpdateSchema>,
): Promise<RobotDto> {
  const { id, ...fields } = input;
  await db.kysely
    .transaction()
    .execute(async (k) => {
      const cur = await repo.findRobot(k, p.orgi, id);
      if (!cur) throw notFound();
      if (fields.name && (await repo.nameTaken(k, p.orgi, fields.name, id))) throw nameRepeat();
      await checkTypes(k, p.orgi, fields.kbtypes);
      const set = { ...columns(fields), updatetime: Date.now() } as Partial<repo.RobotRow>;
      const answer = set.answer_score ?? cur.answer_score;
      const suggest = set.suggest_score ?? cur.suggest_score;
      if (suggest > answer) throw badRequest('robot_thresholds', { suggestThreshold: 'robot_thresholds' });
      await k.updateTable('robot').set(set).where('id', '=', id).execute();
    })
    .catch(rethrowUnique(() => nameRepeat()));
  return detail(db, p, id);
}

/** Deletes a robot that serves no open chat (its access points then start chats with humans). */
export async function remove(db: Db, p: Principal, id: string): Promise<null> {
  return db.kysely.transaction().execute(async (k) => {
    if (!(await repo.findRobot(k, p.orgi, id))) throw notFound();
    if ((await repo.openChatsOf(k, id)) > 0) throw badRequest('robot_in_use');
    await k.deleteFrom('robot_binding').where('robotid', '=', id).execute();
    await k.deleteFrom('robot').where('id', '=', id).execute();
    return null;
  });
}

async function accessPoint(k: Kdb, p: Principal, appid: string) {
  const ap = await k
    .selectFrom('access_point')
    .select(['id'])
    .where('orgi', '=', p.orgi)
    .where('id', '=', appid)
    .executeTakeFirst();
  if (!ap) throw notFound('access_point_not_found');
}

export async function binding(db: Db, p: Principal, appid: string): Promise<WebimAiDto> {
  const k = db.kysely;
  await accessPoint(k, p, appid);
  const b = await repo.bindingOf(k, repo.WEBIM, appid);
  const r = b ? await repo.findRobot(k, p.orgi, b.robotid) : undefined;
  return { appid, robotid: r?.id ?? null, robotname: r?.name ?? '' };
}

/** Binds a robot to an access point (null: none; the access point's chats go to humans). */
export async function bind(db: Db, p: Principal, appid: string, robotid: string | null): Promise<WebimAiDto> {
  await db.kysely.transaction().execute(async (k) => {
    await accessPoint(k, p, appid);
    if (robotid && !(await repo.findRobot(k, p.orgi, robotid)))
      throw badRequest('invalid_field', { robotid: 'invalid_field' });
    await repo.bind(k, p.orgi, repo.WEBIM, appid, robotid, Date.now());
  });
  return binding(db, p, appid);
}
