/**
 * The diagnosis module as a Fastify plugin: configuration and uploads, the identification runner
 * (started once the server is ready, drained before it closes), results, history, the report and
 * the diagnoses made on a device. The models (a ModelWorker) are the composition root's: health
 * reports them too.
 */
import type { FastifyInstance } from 'fastify';
import { MEDIA_KINDS } from '@diagrodl/contracts';
import type { Platform } from '../../platform.ts';
import type { ModelWorker } from '../../worker/model-worker.ts';
import { ConfigService } from './config.service.ts';
import { DeviceDiagnosisRepository } from './device.repository.ts';
import { deviceRoutes } from './device.routes.ts';
import { DeviceDiagnosisService } from './device.service.ts';
import { DiagnosisRepository } from './diagnosis.repository.ts';
import { diagnosisRoutes } from './diagnosis.routes.ts';
import { IdentificationRunner, type RunnerOptions } from './identification-runner.ts';
import { MediaStore } from './media.ts';
import { ReportService } from './report/report.service.ts';
import { ResultsService } from './results.service.ts';
import { UploadService } from './upload.service.ts';

export interface DiagnosisModuleOptions {
  models: ModelWorker;
  /** Runner tuning (tests shorten the lease and pause runs between chunks). */
  runner?: RunnerOptions;
}

export async function diagnosisModule(
  app: FastifyInstance,
  p: Platform & DiagnosisModuleOptions,
): Promise<void> {
  const { config, models } = p;
  const repo = new DiagnosisRepository(p.db.kysely);
  const media = new MediaStore(config.mediaDir);
  const runner = new IdentificationRunner(repo, media, models, p.log, {
    // the embedded SQLite file is this process's alone: interrupted runs resume at start-up
    exclusive: config.database.kind === 'sqlite',
    ...p.runner,
  });
  app.addHook('preClose', async () => runner.close());
  // "Mis datos": the user's media folders (exported, removed with the account) and their runs.
  p.userData.add({
    folders: (userId) => MEDIA_KINDS.map((kind) => ({ kind, dir: media.dir(kind, userId) })),
    hold: (userId) => runner.hold(userId),
  });
  // Identification runs interrupted by a stop or a crash go on by themselves.
  app.addHook('onReady', async () => runner.start());

  await diagnosisRoutes(app, {
    config: new ConfigService(repo, models),
    uploads: new UploadService(repo, media),
    runner,
    results: new ResultsService(repo, media),
    reports: new ReportService(repo, media, models),
    models,
    media,
    publicUrl: config.publicUrl,
  });
  await deviceRoutes(app, {
    service: new DeviceDiagnosisService(new DeviceDiagnosisRepository(p.db.kysely), media, models),
    models,
    modelsDir: config.modelsDir,
  });
}
