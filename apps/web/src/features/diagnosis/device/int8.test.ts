// The browser's runtime (onnxruntime-web's WebAssembly, the binary the device model loads) multiplies
// the int8 files exactly: on the server this needs a session key on CPUs without VNNI
// (apps/server/src/inference/ort-session.mjs); here the probe must give it in the session
// device/model.ts creates. The probe: apps/server/src/testing/fixtures/int8-pairs/README.md.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDeviceSession } from './model';

const require = createRequire(import.meta.url);
const PROBE = path.resolve(
  import.meta.dirname,
  '../../../../../server/src/testing/fixtures/int8-pairs/pairs.onnx',
);

describe('int8 products in the browser runtime', () => {
  it('are exact (64, not the 32.5 of pairs clipped at 16 bits)', async () => {
    const ort = await import('onnxruntime-web/wasm');
    const session = await createDeviceSession(
      ort,
      fs.readFileSync(PROBE),
      fs.readFileSync(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm')),
    );
    try {
      const input = new ort.Tensor('float32', new Float32Array(2 * 64 * 16).fill(1), [2, 64, 4, 4]);
      const out = (await session.run({ input })).output as { data: Float32Array };
      expect(new Set(out.data)).toEqual(new Set([64]));
    } finally {
      await session.release();
    }
  });
});
