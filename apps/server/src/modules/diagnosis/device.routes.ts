/**
 * HTTP for diagnosis on the device (README.md beside this file, "Diagnoses made on a device"): the model file and card the browser runs
 * (public, served byte for byte from the loaded model, ETag = sha256) and the upload of a
 * diagnosis the device made offline (logged-in user, CSRF like every mutating call).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_MESSAGES as D, ENDPOINTS, UPLOAD_LIMITS } from '@diagrodl/contracts';
import type { Inference } from '../../inference/classifier.ts';
import { route } from '../../lib/contract-routes.ts';
import { HttpError } from '../../lib/errors.ts';
import { userIdOf } from '../../plugins/auth-guard.ts';
import type { DeviceDiagnosisService } from './device.service.ts';

export async function deviceRoutes(
  app: FastifyInstance,
  deps: { service: DeviceDiagnosisService; models: Inference; modelsDir: string },
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: UPLOAD_LIMITS.maxBytes,
        files: 1,
        fields: 8,
        fieldSize: 16 * 1024,
        parts: 10,
        headerPairs: 100,
      },
    });

    const loaded = (id: string) => {
      const card = deps.models.card(id);
      if (!card) throw new HttpError(404, D.modelNotFound);
      return { id, card };
    };
    const send = async (
      request: FastifyRequest,
      reply: FastifyReply,
      file: string,
      etag: string,
      type: string,
    ) => {
      reply.header('ETag', etag).header('Cache-Control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat?.isFile()) throw new HttpError(404, D.modelNotFound);
      return reply
        .type(type)
        .header('Content-Length', String(stat.size))
        .send(fs.createReadStream(file));
    };

    route(
      scope,
      ENDPOINTS.deviceModelFile,
    )(async (request, reply) => {
      const m = loaded(request.params.file.id);
      if (request.params.file.kind === 'onnx') {
        const file = path.join(deps.modelsDir, `${m.id}.onnx`);
        return send(request, reply, file, `"${m.card.file.sha256}"`, 'application/octet-stream');
      }
      const file = path.join(deps.modelsDir, `${m.id}.card.json`);
      const bytes = await fs.promises.readFile(file).catch(() => null);
      if (!bytes) throw new HttpError(404, D.modelNotFound);
      const etag = `"${createHash('sha256').update(bytes).digest('hex')}"`;
      return send(request, reply, file, etag, 'application/json; charset=utf-8');
    });

    route(
      scope,
      ENDPOINTS.deviceDiagnoses,
    )(async (request) => {
      const { image, name_img, client_id, result } = request.body;
      return deps.service.receive(userIdOf(request), {
        bytes: image?.bytes as Buffer | undefined, // read by the multipart reader: a Buffer
        filename: image?.filename,
        nameImg: name_img,
        clientId: client_id,
        result,
      });
    });
  });
}
