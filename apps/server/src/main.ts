import { loadConfig } from './config.js';
import { openDatabase } from './platform/db/database.js';
import { migrate } from './platform/db/migrate.js';
import { buildApp } from './app.js';
import { seed, startupBanner } from './modules/seed/seed.service.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = openDatabase(config);
  await migrate(db);
  const seeded = await seed(db, config);
  const { app } = await buildApp({ config, db, serveStatic: true, logger: true });
  const close = async () => {
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  console.log(startupBanner(config, seeded));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
