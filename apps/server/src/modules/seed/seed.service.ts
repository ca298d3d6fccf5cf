import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import {
  ALL_PERMISSION_CODES,
  SEED_EN_TEXTS,
  VISITOR_TEXT_SCOPES,
  textScopeId,
  type VisitorTextScope,
} from '@kefu/protocol';
import type { AppConfig, SeedLanguage } from '../../config.js';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import { newId } from '../../platform/ids.js';
import { generatePassword, hashPassword } from '../../platform/auth/passwords.js';
import * as repo from './seed.repository.js';

/** The names a new tenant's stock rows get, in the language it starts in (KEFU_LANGUAGE, the registrant's). */
export const SEED_NAMES = {
  zh: {
    title: '在线客服',
    organ: '客服部',
    adminRole: '管理员',
    adminRoleDescription: '系统管理员',
    agentRole: '客服',
    agentRoleDescription: '在线客服',
    demoSite: '演示网站',
  },
  en: {
    title: 'Customer service',
    organ: 'Customer service',
    adminRole: 'Administrators',
    adminRoleDescription: 'System administrators',
    agentRole: 'Agents',
    agentRoleDescription: 'Live chat agents',
    demoSite: 'Demo website',
  },
} as const satisfies Record<SeedLanguage, Record<string, string>>;
export const DEFAULT_ORG_TITLE = SEED_NAMES.zh.title;
export const DEFAULT_ORGAN_NAME = SEED_NAMES.zh.organ;
export const ADMIN_ROLE_NAME = SEED_NAMES.zh.adminRole;
export const AGENT_ROLE_NAME = SEED_NAMES.zh.agentRole;
export const AGENT_ROLE_CODES = ['A01', 'A02', 'A04', 'A05', 'A09_A07_A01'] as const;
export const ADMIN_USERNAME = 'admin';
export const DEMO_APPID = 'demo';

export interface SeedResult {
  adminCreated: boolean;
  /** Set only on the start that created the admin with a generated password. */
  generatedPassword?: string;
  passwordFile?: string;
}

export const adminPasswordFile = (config: Pick<AppConfig, 'dataDir'>): string =>
  join(config.dataDir, 'admin-password.txt');

/** The generated password stops being a secret worth keeping once the admin has chosen their own. */
export function forgetGeneratedAdminPassword(config: Pick<AppConfig, 'dataDir'>): void {
  rmSync(adminPasswordFile(config), { force: true });
}

/**
 * Idempotent first-start data: organisation, default skill group, the two stock roles and the admin.
 * Existing rows are never modified, so an administrator's later edits survive restarts. There is no
 * fixed default password: it comes from config or is generated once.
 */
export async function seed(db: Db, config: AppConfig): Promise<SeedResult> {
  const orgi = config.orgi;
  const result = await db.kysely.transaction().execute(async (k): Promise<SeedResult> => {
    // Two server processes starting together against one PostgreSQL must not both create an admin.
    if (db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(727002)`.execute(k);
    const now = Date.now();
    const names = SEED_NAMES[config.language];
    const { organ, adminRole } = await seedTenant(k, orgi, names.title, now, config.language);
    // The demo website access point used by /im/demo.html (appid 'demo'); kept as edited.
    if (!(await k.selectFrom('access_point').select('id').where('id', '=', DEMO_APPID).executeTakeFirst()))
      await k
        .insertInto('access_point')
        .values({ id: DEMO_APPID, orgi, name: names.demoSite, organ, createtime: now, updatetime: now })
        .execute();
    // English for visitors whose widget speaks English (the base texts above are Chinese).
    await repo.insertTextsIfMissing(k, orgi, seedEnglishTexts(DEMO_APPID), now);

    if (await repo.findUserByUsername(k, orgi, ADMIN_USERNAME)) return { adminCreated: false };
    const generated = config.adminPassword ? undefined : generatePassword(16);
    const password = config.adminPassword ?? (generated as string);
    await repo.insertAdmin(k, {
      id: newId(),
      orgi,
      username: ADMIN_USERNAME,
      passwordHash: await hashPassword(password),
      organ,
      role: adminRole,
      now,
    });
    return { adminCreated: true, generatedPassword: generated };
  });
  if (result.generatedPassword) {
    // Written only after the commit, so a failed seed never leaves a password for a user that does not exist.
    const file = adminPasswordFile(config);
    writeFileSync(file, `${result.generatedPassword}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    result.passwordFile = file;
  }
  return result;
}

/**
 * What every tenant starts with (the default one at first start, and each self-registered company): its
 * organisation row, the default skill group and the two stock roles. Existing rows are kept as edited.
 */
export async function seedTenant(
  k: Kysely<Database>,
  orgi: string,
  title: string,
  now: number,
  language: SeedLanguage,
): Promise<{ organ: string; adminRole: string }> {
  const names = SEED_NAMES[language];
  if (!(await repo.findOrganization(k, orgi))) await repo.insertOrganization(k, orgi, title, now);
  // A restart in the other language finds the rows the first start made instead of adding a second set.
  const either = <K extends keyof typeof names>(key: K) => [SEED_NAMES.zh[key], SEED_NAMES.en[key]];
  let organ: string | undefined;
  for (const name of either('organ')) organ ??= (await repo.findOrganByName(k, orgi, name))?.id;
  if (!organ) {
    organ = newId();
    await repo.insertOrgan(k, { id: organ, orgi, name: names.organ, skill: 1, now });
  }
  const adminRole = await ensureRole(
    k,
    orgi,
    either('adminRole'),
    { name: names.adminRole, description: names.adminRoleDescription },
    ALL_PERMISSION_CODES,
    now,
  );
  // One millisecond later, so lists ordered by creation show the administrator role first.
  await ensureRole(
    k,
    orgi,
    either('agentRole'),
    { name: names.agentRole, description: names.agentRoleDescription },
    AGENT_ROLE_CODES,
    now + 1,
  );
  return { organ, adminRole };
}

/** The seed's English texts as stored rows: tenant scopes, and the demo site's widget scopes. */
export function seedEnglishTexts(appid: string): repo.TextRow[] {
  return (Object.keys(SEED_EN_TEXTS) as VisitorTextScope[]).map((scope) => ({
    scope: textScopeId(scope, VISITOR_TEXT_SCOPES[scope].site ? appid : null),
    lang: 'en',
    texts: SEED_EN_TEXTS[scope as keyof typeof SEED_EN_TEXTS],
  }));
}

async function ensureRole(
  k: Kysely<Database>,
  orgi: string,
  knownAs: readonly string[],
  fresh: { name: string; description: string },
  codes: readonly string[],
  now: number,
): Promise<string> {
  for (const name of knownAs) {
    const found = await repo.findRoleByName(k, orgi, name);
    if (found) return found.id;
  }
  const id = newId();
  await repo.insertRole(k, { id, orgi, ...fresh, codes, now });
  return id;
}

/** What main.ts prints after listening. The password appears only on the start that generated it. */
export function startupBanner(config: Pick<AppConfig, 'port' | 'dataDir'>, seeded: SeedResult): string {
  const base = `http://localhost:${config.port}`;
  const lines = [
    '',
    'kefu is running.',
    `  Console:            ${base}/`,
    `  Demo visitor page:  ${base}/im/demo.html`,
  ];
  if (seeded.generatedPassword) {
    lines.push(
      `  Log in as "${ADMIN_USERNAME}" with the generated password: ${seeded.generatedPassword}`,
      `  (also saved to ${seeded.passwordFile}; it is deleted when you change the password)`,
      '  This password is shown only once.',
    );
  } else if (seeded.adminCreated) {
    lines.push(`  Log in as "${ADMIN_USERNAME}" with the password from KEFU_ADMIN_PASSWORD.`);
  } else if (existsSync(adminPasswordFile(config))) {
    lines.push(
      `  Log in as "${ADMIN_USERNAME}": the first-start password is still in ${adminPasswordFile(config)}.`,
    );
  } else {
    lines.push(`  Log in as "${ADMIN_USERNAME}" or another user.`);
  }
  lines.push('');
  return lines.join('\n');
}
