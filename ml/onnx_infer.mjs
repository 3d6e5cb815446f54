// Runs an ONNX model with onnxruntime-node on raw float32 NCHW input files.
// usage: node ml/onnx_infer.mjs <model.onnx> <C> <H> <W> <in.f32> <out.f32> [<in2.f32> <out2.f32> ...]
// Writes the `probabilities` output (float32, row-major [N, K]) of each input file, and the `energy`
// output ([N]) to <out.f32>.energy when the model has one.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'apps', 'server', 'package.json'));
const ort = require('onnxruntime-node');

const [modelPath, c, h, w, ...files] = process.argv.slice(2);
const C = Number(c), H = Number(h), W = Number(w);
const session = await ort.InferenceSession.create(modelPath, { intraOpNumThreads: 2, interOpNumThreads: 1 });
const per = C * H * W;
for (let i = 0; i + 1 < files.length; i += 2) {
  const buf = readFileSync(files[i]);
  const data = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  const n = data.length / per;
  const chunks = [];
  const energies = [];
  for (let s = 0; s < n; s += 32) {
    const e = Math.min(n, s + 32);
    const input = new ort.Tensor('float32', data.subarray(s * per, e * per), [e - s, C, H, W]);
    const out = await session.run({ input });
    chunks.push(Buffer.from(new Float32Array(out.probabilities.data).buffer));
    if (out.energy) energies.push(Buffer.from(new Float32Array(out.energy.data).buffer));
  }
  writeFileSync(files[i + 1], Buffer.concat(chunks));
  if (energies.length) writeFileSync(`${files[i + 1]}.energy`, Buffer.concat(energies));
}
