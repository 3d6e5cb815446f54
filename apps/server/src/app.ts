import fs from 'node:fs';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { SERVER_MESSAGES } from '@diagrodl/contracts';
import type { Config } from './config.ts';
import { type Db, openDatabase } from './db/database.ts';
import { HttpError } from './lib/errors.ts';
import { resolveSessionSecret } from './lib/secret.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { authRoutes, sessionRoutes } from './modules/auth/auth.routes.ts';
import { UserRepository } from './modules/auth/user.repository.ts';
import { createMailer } from './mail/mailer.ts';
import { AccountsService } from './modules/accounts/accounts.service.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { PasswordResetRepository } from './modules/auth/password-reset.repository.ts';
import { passwordRoutes } from './modules/auth/password.routes.ts';
import { PasswordService } from './modules/auth/password.service.ts';
import { RateLimitRepository } from './modules/auth/rate-limit.repository.ts';
import { RateLimiter } from './modules/auth/rate-limiter.ts';
import { ContactRepository } from './modules/contact/contact.repository.ts';
import { contactRoutes } from './modules/contact/contact.routes.ts';
import { ContactService } from './modules/contact/contact.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { ModelWorker } from './inference/model-worker.ts';
import { DiagnosisRepository } from './modules/diagnosis/diagnosis.repository.ts';
import { diagnosisRoutes } from './modules/diagnosis/diagnosis.routes.ts';
import { DeviceDiagnosisRepository } from './modules/diagnosis/device.repository.ts';
import { deviceRoutes } from './modules/diagnosis/device.routes.ts';
import { DeviceDiagnosisService } from './modules/diagnosis/device.service.ts';
import { type DiagnosisOptions, DiagnosisService } from './modules/diagnosis/diagnosis.service.ts';
import { MediaStore } from './modules/diagnosis/media.ts';
import { SessionRepository } from './modules/session/session.repository.ts';
import { Sessions } from './modules/session/sessions.ts';
import { registerCsrf } from './plugins/csrf.ts';
import { registerSpa } from './plugins/spa.ts';

export interface App {
  server: FastifyInstance;
  db: Db;
  config: Config;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database. */
  close(): Promise<void>;
}

/** The composition root: everything the server is, built from one Config. */
export interface AppOptions {
  /** Diagnosis tuning (tests shorten the claim lifetime and pause runs between chunks). */
  diagnosis?: DiagnosisOptions;
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<App> {
  for (const dir of [config.dataDir, config.mediaDir, config.outboxDir]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  const db = await openDatabase(config.database);
  const secret = resolveSessionSecret(config.sessionSecret, config.dataDir);

  const server = Fastify({
    logger: { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  server.addHook('onClose', async () => {
    await db.close();
  });

  // One error handler: JSON {status: 'ERROR', detail}, never a stack trace.
  server.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ status: 'ERROR', detail: error.detail, ...error.extra });
    }
    const code = error.statusCode ?? 500;
    if (code >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(code).send({ status: 'ERROR', detail: SERVER_MESSAGES.internal });
    }
    const detail =
      code === 413
        ? SERVER_MESSAGES.payloadTooLarge
        : code === 429
          ? error.message
          : code === 404
            ? SERVER_MESSAGES.notFound
            : SERVER_MESSAGES.badRequest;
    return reply.code(code).send({ status: 'ERROR', detail });
  });

  await server.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'blob:'],
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'connect-src': ["'self'"],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
  await server.register(cookie);

  if (config.maintenance) {
    server.addHook('onRequest', async (request, reply) => {
      const url = request.url;
      if (url.startsWith('/api/') || url.startsWith('/diagrodl/')) {
        return reply
          .code(503)
          .header('Retry-After', '3600')
          .send({ status: 'ERROR', detail: SERVER_MESSAGES.maintenance });
      }
    });
  }

  const users = new UserRepository(db.kysely);
  const sessions = new Sessions(new SessionRepository(db.kysely));
  sessions.register(server);
  registerCsrf(server, secret);

  // Diagnosis (issue 9): models loaded once; a model whose card does not match is refused.
  // Inference runs in a worker thread, off the event loop (issue 17).
  const models = await ModelWorker.start(config.modelsDir, {
    info: (m) => server.log.info(m),
    warn: (m) => server.log.warn(m),
  });
  const media = new MediaStore(config.mediaDir);
  const diagnosis = new DiagnosisService(
    new DiagnosisRepository(db.kysely),
    media,
    models,
    server.log,
    {
      // the embedded SQLite file is this process's alone: interrupted runs resume at start-up
      exclusive: config.database.kind === 'sqlite',
      ...options.diagnosis,
      productName: 'DiAgroDL',
    },
  );
  server.addHook('preClose', async () => diagnosis.close());
  server.addHook('onClose', async () => models.close());
  healthRoutes(server, { db, maintenance: config.maintenance, models: () => models.health() });
  await diagnosisRoutes(server, { service: diagnosis, models, media, publicUrl: config.publicUrl });
  // Diagnosis on the device (issue 18): the model it runs and the diagnoses it made offline.
  await deviceRoutes(server, {
    service: new DeviceDiagnosisService(new DeviceDiagnosisRepository(db.kysely), media),
    models,
    modelsDir: config.modelsDir,
  });
  sessionRoutes(server, { users });
  // Accounts, login hardening, password change/reset and contact (issue 3).
  const limiter = new RateLimiter(new RateLimitRepository(db.kysely));
  const mailer = createMailer(
    { smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.outboxDir },
    server.log,
  );
  if (!config.publicUrl && !config.maintenance) {
    server.log.warn(
      'PUBLIC_URL is not set: links in e-mails (login, password reset) use the Host header of ' +
        'each request. Set PUBLIC_URL in production so that nobody can point them elsewhere.',
    );
  }
  authRoutes(server, { auth: new AuthService(users, limiter), sessions });
  accountsRoutes(server, {
    accounts: new AccountsService({
      users,
      mailer,
      limiter,
      providerKey: config.providerKey,
      providerName: config.providerName,
      log: server.log,
    }),
    publicUrl: config.publicUrl,
  });
  passwordRoutes(server, {
    passwords: new PasswordService({
      users,
      resets: new PasswordResetRepository(db.kysely),
      sessions,
      mailer,
      limiter,
      log: server.log,
    }),
    publicUrl: config.publicUrl,
  });
  contactRoutes(server, {
    contact: new ContactService({
      contacts: new ContactRepository(db.kysely),
      users,
      mailer,
      limiter,
      contactTo: config.contactTo,
      log: server.log,
    }),
  });

  await registerSpa(server, {
    webDist: config.webDist,
    runtime: {
      maintenance: config.maintenance,
      providerName: config.providerName,
      providerKey: config.providerKey,
    },
  });

  // Expired sessions are swept at start and hourly.
  await sessions.purgeExpired();
  const sweep = setInterval(() => void sessions.purgeExpired().catch(() => undefined), 3600_000);
  sweep.unref();
  server.addHook('onClose', async () => clearInterval(sweep));

  await server.ready();
  // Identification runs interrupted by a stop or a crash go on by themselves (issue 17).
  diagnosis.start();
  return {
    server,
    db,
    config,
    close: () => server.close(),
  };
}
