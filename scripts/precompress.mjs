// Compresses the built web app's text and WebAssembly files once, at build time: a brotli (.br)
// and a gzip (.gz) copy beside each, which the server's static plugin (@fastify/static with
// `preCompressed`) sends to a browser that accepts them. Photos, videos, the PDF manual and the
// model are compressed already and are left alone. Node's own zlib does the work.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** The files worth compressing: text and WebAssembly. */
export const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|webmanifest|wasm|map)$/i;
/** Below this a file is sent as it is (the headers would cost more than the saving). */
const MIN_BYTES = 1024;
/** Brotli's best quality takes minutes on the 14 MB WebAssembly runtime; 9 is nearly as small. */
const LARGE_BYTES = 2 * 1024 * 1024;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(file);
    else if (entry.isFile()) yield file;
  }
}

/**
 * Writes `FILE.br` and `FILE.gz` beside each compressible file of `dir` (each only when it is
 * smaller than the file) and returns the bytes before and after, for the build's log.
 */
export function precompress(dir) {
  const totals = { files: 0, bytes: 0, brotli: 0, gzip: 0 };
  for (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const data = fs.readFileSync(file);
    if (data.length < MIN_BYTES) continue;
    const brotli = zlib.brotliCompressSync(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: data.length > LARGE_BYTES ? 9 : 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    const gzip = zlib.gzipSync(data, { level: 9 });
    totals.files += 1;
    totals.bytes += data.length;
    for (const [ext, packed, key] of [
      ['.br', brotli, 'brotli'],
      ['.gz', gzip, 'gzip'],
    ]) {
      if (packed.length < data.length) {
        fs.writeFileSync(`${file}${ext}`, packed);
        totals[key] += packed.length;
      } else {
        fs.rmSync(`${file}${ext}`, { force: true });
        totals[key] += data.length;
      }
    }
  }
  return totals;
}
