/**
 * HTTP for the diagnosis tool (specification section 7): thin handlers, registered from the
 * endpoint table (packages/contracts), that hand the checked request to the service. Every
 * route but GET /diagrodl/models/ needs a logged-in user; CSRF is enforced for mutating calls by
 * the global hook.
 */
import fs from 'node:fs';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS as E, UPLOAD_LIMITS, reportFileName } from '@diagrodl/contracts';
import type { Inference } from '../../inference/classifier.ts';
import { route } from '../../lib/contract-routes.ts';
import { HttpError } from '../../lib/errors.ts';
import { pageLanguage, publicBase } from '../../mail/language.ts';
import { userIdOf } from '../../plugins/auth-guard.ts';
import type { ConfigService } from './config.service.ts';
import type { IdentificationRunner } from './identification-runner.ts';
import type { ReportService } from './report/report.service.ts';
import type { ResultsService } from './results.service.ts';
import type { UploadService } from './upload.service.ts';
import { MEDIA_TYPES, type MediaStore } from './media.ts';

async function registerScope(
  app: FastifyInstance,
  plugin: (scope: FastifyInstance) => Promise<void>,
): Promise<void> {
  await app.register(plugin);
}

export function diagnosisRoutes(
  app: FastifyInstance,
  deps: {
    config: ConfigService;
    uploads: UploadService;
    runner: IdentificationRunner;
    results: ResultsService;
    reports: ReportService;
    models: Inference;
    media: MediaStore;
    publicUrl: string | undefined;
  },
): Promise<void> {
  const { config, uploads, runner, results, reports } = deps;
  return registerScope(app, async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: UPLOAD_LIMITS.maxBytes,
        files: 1,
        fields: 10,
        fieldSize: 4096,
        parts: 12,
        headerPairs: 100,
      },
    });

    route(scope, E.models)(async () => deps.models.list());

    route(scope, E.configure)(async (request) => config.configure(userIdOf(request), request.body));
    route(scope, E.config)(async (request) => config.getConfig(userIdOf(request)));

    route(
      scope,
      E.upload,
    )(async (request) =>
      uploads.upload(userIdOf(request), {
        bytes: request.body.image.bytes as Buffer, // read by the multipart reader: a Buffer
        filename: request.body.image.filename,
        nameImg: request.body.name_img,
      }),
    );
    route(scope, E.rows)(async (request) => results.rows(userIdOf(request), pageLanguage(request)));
    route(
      scope,
      E.deleteRow,
    )(async (request) => results.deleteRow(userIdOf(request), request.params.id));

    route(scope, E.pending)(async (request) => uploads.pending(userIdOf(request)));
    route(
      scope,
      E.deletePending,
    )(async (request) => uploads.deletePending(userIdOf(request), request.params.id));

    // Answers at once with the number of images claimed; the page polls /diagrodl/progress/.
    // ?wait=1 answers only when the identification has ended (scripts, simple clients). `ids`
    // (beyond the spec) names the pending images to identify; without it, every one.
    route(
      scope,
      E.predict,
    )(async (request) =>
      runner.predict(userIdOf(request), {
        wait: request.query.wait === '1',
        ids: request.body.ids,
      }),
    );
    route(
      scope,
      E.progress,
    )(async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return runner.progress(userIdOf(request));
    });

    route(
      scope,
      E.makeReport,
    )(async (request) => {
      return reports.makeReport(
        userIdOf(request),
        publicBase(request, deps.publicUrl),
        pageLanguage(request),
        request.query.tz,
      );
    });

    route(scope, E.deleteRows)(async (request) => results.deleteRows(userIdOf(request)));

    route(
      scope,
      E.history,
    )(async (request) => results.history(userIdOf(request), pageLanguage(request)));
    route(scope, E.clearHistory)(async (request) => results.deleteHistory(userIdOf(request)));
    route(
      scope,
      E.deleteHistoryItem,
    )(async (request) => results.deleteHistory(userIdOf(request), request.params.id));

    // Media: only the owner's own folder is ever looked at, so another user's file is a 404.
    route(
      scope,
      E.media,
    )(async (request, reply) => {
      const { kind, file } = request.params;
      const p = deps.media.resolve(kind, userIdOf(request), file);
      if (!p) throw new HttpError(404, 'No encontrado.');
      const stat = await fs.promises.stat(p).catch(() => null);
      if (!stat?.isFile()) throw new HttpError(404, 'No encontrado.');
      const ext = file.slice(file.lastIndexOf('.') + 1);
      reply
        .type(MEDIA_TYPES[ext] ?? 'application/octet-stream')
        .header('Content-Length', String(stat.size))
        .header('Cache-Control', 'private, max-age=3600');
      if (ext === 'pdf') {
        // saved under a name that says what it is, the day it was made (UTC)
        const day = stat.mtime.toISOString().slice(0, 10);
        reply.header('Content-Disposition', `attachment; filename="${reportFileName(day)}"`);
      }
      return reply.send(fs.createReadStream(p));
    });
  });
}
