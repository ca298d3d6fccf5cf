import { loadConfig } from './config.js';
import { startServer } from './platform/lifecycle/serve.js';
import { startupBanner } from './modules/seed/seed.service.js';

/** A shutdown that has not finished after this long is cut short (a stuck connection, a hung database). */
const SHUTDOWN_LIMIT_MS = 15_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const running = await startServer(config);
  let signals = 0;
  const stop = (reason: string) => {
    // A second Ctrl-C means "now".
    if (++signals > 1) process.exit(1);
    setTimeout(() => {
      running.app.log.error(`shutdown took longer than ${SHUTDOWN_LIMIT_MS} ms, exiting`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    running.shutdown(reason).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Started by scripts/start.mjs (an IPC channel): when it goes away, however it ended, so does the server.
  if (process.send) process.on('disconnect', () => stop('parent exited'));
  // Last, and once: where to go and how to log in (npm start's output ends here).
  console.log(startupBanner(config, running.seeded));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
