/**
 * HTTP for the diagnosis tool (specification section 7): thin handlers that translate
 * multipart/JSON into service calls. Every route but GET /diagrodl/models/ needs a
 * logged-in user; CSRF is enforced for mutating calls by the global hook.
 */
import fs from 'node:fs';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DIAGNOSIS_MESSAGES as M, DIAGNOSIS_PATHS as P, UPLOAD_LIMITS } from '@diagrodl/contracts';
import type { Inference } from '../../inference/classifier.ts';
import { HttpError } from '../../lib/errors.ts';
import { requireUser, userIdOf } from '../../plugins/auth-guard.ts';
import type { ConfigService } from './config.service.ts';
import type { IdentificationRunner } from './identification-runner.ts';
import type { ReportService } from './report/report.service.ts';
import type { ResultsService } from './results.service.ts';
import type { UploadService } from './upload.service.ts';
import { MEDIA_TYPES, type MediaStore } from './media.ts';

interface MultipartBody {
  fields: Record<string, string>;
  file?: { bytes: Buffer; filename: string | undefined; fieldname: string };
}

/** Reads a multipart body (one file at most) or a JSON/urlencoded object into fields. */
async function readBody(request: FastifyRequest): Promise<MultipartBody> {
  if (!request.isMultipart()) {
    const body = request.body;
    const fields: Record<string, string> = {};
    if (body && typeof body === 'object') {
      for (const [k, v] of Object.entries(body)) if (typeof v === 'string') fields[k] = v;
    }
    return { fields };
  }
  const out: MultipartBody = { fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (out.file) {
          await part.toBuffer().catch(() => undefined);
          continue;
        }
        out.file = {
          bytes: await part.toBuffer(),
          filename: part.filename || undefined,
          fieldname: part.fieldname,
        };
      } else if (typeof part.value === 'string') {
        out.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, M.tooLarge);
    if (code?.startsWith('FST_')) throw new HttpError(400, M.noFile);
    throw err;
  }
  return out;
}

async function registerScope(
  app: FastifyInstance,
  plugin: (scope: FastifyInstance) => Promise<void>,
): Promise<void> {
  await app.register(plugin);
}

function positiveId(raw: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, M.pendingNotFound);
  return id;
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

    scope.get(P.models, async () => deps.models.list());

    const guarded = { preHandler: requireUser };

    scope.post(P.config, guarded, async (request) => {
      const { fields } = await readBody(request);
      return config.configure(userIdOf(request), fields);
    });
    scope.get(P.config, guarded, async (request) => config.getConfig(userIdOf(request)));

    scope.post(P.posts, guarded, async (request) => {
      const body = await readBody(request);
      if (!body.file) throw new HttpError(400, M.noFile);
      return uploads.upload(userIdOf(request), {
        bytes: body.file.bytes,
        filename: body.file.filename,
        nameImg: body.fields.name_img,
      });
    });
    scope.get(P.posts, guarded, async (request) => results.rows(userIdOf(request)));

    scope.get(P.pending, guarded, async (request) => uploads.pending(userIdOf(request)));
    scope.delete<{ Params: { id: string } }>('/diagrodl/pending/:id/', guarded, async (request) =>
      uploads.deletePending(userIdOf(request), positiveId(request.params.id)),
    );

    // Answers at once with the number of images claimed; the page polls /diagrodl/progress/.
    // ?wait=1 answers only when the identification has ended (scripts, simple clients).
    scope.post<{ Querystring: { wait?: string } }>(P.predict, guarded, async (request) => {
      await readBody(request); // fields 'image' and 'report' carry nothing the server needs
      return runner.predict(userIdOf(request), { wait: request.query.wait === '1' });
    });
    scope.get(P.progress, guarded, async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return runner.progress(userIdOf(request));
    });

    scope.get(P.makeReport, guarded, async (request) => {
      const base = deps.publicUrl ?? `${request.protocol}://${request.host}`;
      return reports.makeReport(userIdOf(request), base);
    });

    scope.post(P.deleteRows, guarded, async (request) => {
      await readBody(request);
      return results.deleteRows(userIdOf(request));
    });

    scope.get(P.history, guarded, async (request) => results.history(userIdOf(request)));
    scope.delete(P.history, guarded, async (request) => results.deleteHistory(userIdOf(request)));
    scope.delete<{ Params: { id: string } }>('/diagrodl/history/:id/', guarded, async (request) => {
      const id = Number(request.params.id);
      if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, M.historyNotFound);
      return results.deleteHistory(userIdOf(request), id);
    });

    // Media: only the owner's own folder is ever looked at, so another user's file is a 404.
    scope.get<{ Params: { kind: string; file: string } }>(
      '/media/:kind/:file',
      guarded,
      async (request, reply) => {
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
          reply.header('Content-Disposition', `attachment; filename="${file}"`);
        }
        return reply.send(fs.createReadStream(p));
      },
    );
  });
}
