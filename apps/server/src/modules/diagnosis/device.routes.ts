/**
 * HTTP for diagnosis on the device (README.md beside this file, "Diagnoses made on a device"): the model file and card the browser runs
 * (public, served byte for byte from the loaded model, ETag = sha256; 503 while the files on disk
 * are not the loaded ones; the model brotli-compressed once, in memory, for a browser that
 * accepts it: its float weights shrink by about a tenth) and the upload of a
 * diagnosis the device made offline (logged-in user, CSRF like every mutating call).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import {
  DECODED_LENGTH,
  DEVICE_MESSAGES as D,
  ENDPOINTS,
  UPLOAD_LIMITS,
} from '@diagrodl/contracts';
import type { Inference } from '../../inference/classifier.ts';
import { route } from '../../lib/contract-routes.ts';
import { HttpError } from '../../lib/errors.ts';
import { userIdOf } from '../../plugins/auth-guard.ts';
import type { DeviceDiagnosisService } from './device.service.ts';

const brotli = promisify(zlib.brotliCompress);
/** Models above this size are sent as they are (their compressed copy would stay in memory). */
const MAX_COMPRESSED_MODEL = 64 * 1024 * 1024;

/** Whether an Accept-Encoding header accepts brotli (`br`, not with q=0). */
export function acceptsBrotli(header: string | string[] | undefined): boolean {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text.split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name?.trim() !== 'br') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
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
    /**
     * The files on disk are served only while they are the model the server loaded and its card
     * (a new model copied into MODELS_DIR waits for the restart that loads it: a device never
     * runs a model the server does not). A file's sha256 is computed again only when its size or
     * modification time change.
     */
    const digests = new Map<string, { size: number; mtimeMs: number; sha256: string }>();
    const checkedSize = async (file: string, sha256: string): Promise<number> => {
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat?.isFile()) throw new HttpError(404, D.modelNotFound);
      let d = digests.get(file);
      if (!d || d.size !== stat.size || d.mtimeMs !== stat.mtimeMs) {
        const hash = createHash('sha256');
        await pipeline(fs.createReadStream(file), hash);
        d = { size: stat.size, mtimeMs: stat.mtimeMs, sha256: hash.digest('hex') };
        digests.set(file, d);
      }
      if (d.sha256 !== sha256) throw new HttpError(503, D.modelChanged);
      return stat.size;
    };
    /** The model's brotli copy, made once per file content (its sha256) and kept. */
    const compressed = new Map<string, Promise<Buffer>>();
    const brotliOf = (file: string, sha256: string): Promise<Buffer> => {
      let packed = compressed.get(sha256);
      if (!packed) {
        packed = fs.promises.readFile(file).then((bytes) =>
          brotli(bytes, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
              [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        );
        compressed.set(sha256, packed);
        packed.catch(() => compressed.delete(sha256));
      }
      return packed;
    };
    const namesFile = (bytes: Buffer, sha256: string) => {
      try {
        const card = JSON.parse(bytes.toString('utf8')) as { file?: { sha256?: unknown } };
        return card.file?.sha256 === sha256;
      } catch {
        return false;
      }
    };

    route(
      scope,
      ENDPOINTS.deviceModelFile,
    )(async (request, reply) => {
      const m = loaded(request.params.file.id);
      const sha256 = m.card.file.sha256;
      const notModified = (etag: string) => {
        reply.header('ETag', etag).header('Cache-Control', 'no-cache');
        return request.headers['if-none-match'] === etag;
      };
      if (request.params.file.kind === 'onnx') {
        const file = path.join(deps.modelsDir, `${m.id}.onnx`);
        const stat = await fs.promises.stat(file).catch(() => null);
        const br =
          acceptsBrotli(request.headers['accept-encoding']) &&
          (stat?.size ?? Infinity) <= MAX_COMPRESSED_MODEL;
        reply.header('Vary', 'Accept-Encoding');
        // each representation has its own validator
        if (notModified(br ? `"${sha256}-br"` : `"${sha256}"`)) return reply.code(304).send();
        const size = await checkedSize(file, sha256);
        if (br) {
          const packed = await brotliOf(file, sha256);
          return reply
            .type('application/octet-stream')
            .header('Content-Encoding', 'br')
            .header('Content-Length', String(packed.length))
            .header(DECODED_LENGTH, String(size))
            .send(packed);
        }
        return reply
          .type('application/octet-stream')
          .header('Content-Length', String(size))
          .send(fs.createReadStream(file));
      }
      const bytes = await fs.promises
        .readFile(path.join(deps.modelsDir, `${m.id}.card.json`))
        .catch(() => null);
      if (!bytes) throw new HttpError(404, D.modelNotFound);
      if (!namesFile(bytes, sha256)) throw new HttpError(503, D.modelChanged);
      if (notModified(`"${createHash('sha256').update(bytes).digest('hex')}"`)) {
        return reply.code(304).send();
      }
      return reply.type('application/json; charset=utf-8').send(bytes);
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
