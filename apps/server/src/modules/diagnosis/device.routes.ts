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
import {
  DEVICE_MESSAGES as D,
  DEVICE_PATHS,
  DIAGNOSIS_MESSAGES as M,
  UPLOAD_LIMITS,
} from '@diagrodl/contracts';
import type { Inference } from '../../inference/classifier.ts';
import { HttpError } from '../../lib/errors.ts';
import { requireUser, userIdOf } from '../../plugins/auth-guard.ts';
import type { DeviceDiagnosisService } from './device.service.ts';

interface Parts {
  fields: Record<string, string>;
  file?: { bytes: Buffer; filename: string | undefined };
}

async function readParts(request: FastifyRequest): Promise<Parts> {
  if (!request.isMultipart()) throw new HttpError(400, M.noFile);
  const out: Parts = { fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (!out.file && part.fieldname === 'image') {
          out.file = { bytes, filename: part.filename || undefined };
        }
      } else if (typeof part.value === 'string') {
        out.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, M.tooLarge);
    if (code?.startsWith('FST_')) throw new HttpError(400, D.badResult);
    throw err;
  }
  return out;
}

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

    scope.get<{ Params: { file: string } }>(
      '/diagrodl/device/models/:file',
      async (request, reply) => {
        const match = /^([a-z0-9]+)\.(onnx|card\.json)$/.exec(request.params.file);
        if (!match) throw new HttpError(404, D.modelNotFound);
        const m = loaded(match[1] as string);
        if (match[2] === 'onnx') {
          const file = path.join(deps.modelsDir, `${m.id}.onnx`);
          return send(request, reply, file, `"${m.card.file.sha256}"`, 'application/octet-stream');
        }
        const file = path.join(deps.modelsDir, `${m.id}.card.json`);
        const bytes = await fs.promises.readFile(file).catch(() => null);
        if (!bytes) throw new HttpError(404, D.modelNotFound);
        const etag = `"${createHash('sha256').update(bytes).digest('hex')}"`;
        return send(request, reply, file, etag, 'application/json; charset=utf-8');
      },
    );

    scope.post(DEVICE_PATHS.diagnoses, { preHandler: requireUser }, async (request) => {
      const { fields, file } = await readParts(request);
      return deps.service.receive(userIdOf(request), {
        bytes: file?.bytes,
        filename: file?.filename,
        nameImg: fields.name_img,
        clientId: fields.client_id,
        result: fields.result,
      });
    });
  });
}
