import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const started = Date.now();
  const app = await buildApp(config);
  await app.server.listen({ port: config.port, host: config.host });
  app.server.log.info(
    `DiAgroDL ready on http://localhost:${config.port} (${app.db.describe}; mail: ${
      config.smtpUrl ? 'SMTP' : config.outboxDir
    }) in ${Date.now() - started} ms`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.server.log.info(`${signal}: draining in-flight requests`);
    app
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        console.error(err);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
