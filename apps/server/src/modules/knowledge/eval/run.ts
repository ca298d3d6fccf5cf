import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../config.js';
import { openDatabase } from '../../../platform/db/database.js';
import { migrate } from '../../../platform/db/migrate.js';
import { evaluate, formatReport, loadEvalSet, seedEvalKb } from './evaluate.js';

/**
 * `npm run kb:eval` (offline, retrieval only): loads the evaluation set into a fresh SQLite database (or
 * the PostgreSQL of DATABASE_URL, which must be an empty database) and prints top-1, hit@3 and the share
 * of out-of-scope questions the robot would answer, for the main set and then for the held-out set.
 * `--misses` lists the questions it got wrong.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'kefu-kb-eval-'));
const config = { ...loadConfig(process.env), dataDir };
const db = openDatabase(config);
try {
  await migrate(db);
  const ids = await seedEvalKb(db, 'kefu');
  const report = await evaluate(db, 'kefu', ids);
  console.log(formatReport(report));
  const heldout = await evaluate(db, 'kefu', ids, undefined, loadEvalSet().heldout);
  console.log(`\nheld-out set (heldout-questions.tsv, heldout-oos.txt):\n${formatReport(heldout)}`);
  if (process.argv.includes('--misses')) {
    for (const [tag, r] of [
      ['', report],
      ['held-out ', heldout],
    ] as const) {
      for (const m of r.misses)
        console.log(`${tag}miss  ${m.q}  want ${m.expected}  got ${m.got} (${m.score})`);
      for (const m of r.oosHits) console.log(`${tag}oos   ${m.q}  got ${m.got} (${m.score})`);
    }
  }
} finally {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
