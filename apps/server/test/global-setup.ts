import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/platform/db/database.js';
import { migrate } from '../src/platform/db/migrate.js';
import { newId } from '../src/platform/ids.js';

/** What the server project's test files receive through `inject('kefuTemplate')`. */
export interface KefuTemplate {
  dialect: 'postgres' | 'sqlite';
  /** PostgreSQL: the migrated template database's name; SQLite: the migrated file to copy. */
  source: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    kefuTemplate: KefuTemplate;
  }
}

/**
 * Migrates one database from empty once per run (so the migrations themselves are proven on each
 * dialect every run) and hands it to the harness as a template: each `createTestDb` then starts from a
 * copy of it (PostgreSQL `CREATE DATABASE … TEMPLATE`, SQLite a file copy) instead of running every
 * migration again. Each test still gets its own database; the template is dropped at the end of the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_PG_URL;
  if (adminUrl) {
    const name = `t_tpl_${newId().slice(0, 16)}`;
    await adminQuery(adminUrl, `create database ${name}`);
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'kefu-tpl-'));
    const db = openDatabase({ databaseUrl: u.toString(), dataDir });
    try {
      await migrate(db);
    } finally {
      await db.close(); // a template must have no open connection while it is copied
      rmSync(dataDir, { recursive: true, force: true });
    }
    project.provide('kefuTemplate', { dialect: 'postgres', source: name });
    return async () => {
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'kefu-tpl-'));
  const db = openDatabase({ databaseUrl: undefined, dataDir: dir });
  try {
    await migrate(db);
  } finally {
    await db.close(); // checkpoints the WAL into the file: the copy is the whole database
  }
  project.provide('kefuTemplate', { dialect: 'sqlite', source: join(dir, 'kefu.sqlite') });
  return async () => rmSync(dir, { recursive: true, force: true });
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
