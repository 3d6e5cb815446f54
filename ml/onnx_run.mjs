// Runs an ONNX model with onnxruntime-node on a raw batch file and writes every float32 output.
// usage: node ml/onnx_run.mjs <model.onnx> <in.bin> <dtype: float32|uint8> <dims, e.g. 224,224,3> <out-prefix> [skip,outputs]
// The input file holds N samples of the given per-sample dims; each output `name` is written, row-major,
// to `<out-prefix>.<name>.f32`. Outputs listed in the last argument (comma-separated) are not computed.
// DIAGRODL_ORT_BATCH sets the batch size (default 32). `<out-prefix>.timing.json` gets each batch's
// session.run seconds and, from the first batch to the last, the seconds of CPU this process used
// and those the whole machine was busy (/proc/stat, steal included; null off Linux), so that a reader can tell
// whether another process shared the cores while the graph was timed.
import { openSync, readSync, writeSync, closeSync, fstatSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagnosisSessionOptions } from '../apps/server/src/inference/ort-session.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'apps', 'server', 'package.json'));
const ort = require('onnxruntime-node');

const [modelPath, inPath, dtype, dimsArg, outPrefix, skipArg = ''] = process.argv.slice(2);
const dims = dimsArg.split(',').map(Number);
const per = dims.reduce((a, b) => a * b, 1);
const bytesPer = dtype === 'uint8' ? 1 : 4;
const threads = Number(process.env.DIAGRODL_THREADS ?? 2);
// the server's own session options (exact int8 products on CPUs without VNNI)
const session = await ort.InferenceSession.create(modelPath, diagnosisSessionOptions(threads));
const skip = new Set(skipArg.split(',').filter(Boolean));
const fetches = session.outputNames.filter((n) => !skip.has(n));
const fd = openSync(inPath, 'r');
const n = fstatSync(fd).size / (per * bytesPer);
const outs = Object.fromEntries(fetches.map((name) => [name, openSync(`${outPrefix}.${name}.f32`, 'w')]));
const BATCH = Number(process.env.DIAGRODL_ORT_BATCH ?? 32);

/** Seconds the machine's CPUs were busy since boot (user, nice, system, irq, softirq, steal), or null. */
function machineBusySeconds() {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = cpu;
    return (user + nice + system + irq + softirq + (steal ?? 0)) / 100; // USER_HZ, 100 on Linux
  } catch {
    return null;
  }
}

const seconds = [];
const busy0 = machineBusySeconds();
const cpu0 = process.cpuUsage();
const span0 = process.hrtime.bigint();
for (let s = 0; s < n; s += BATCH) {
  const b = Math.min(BATCH, n - s);
  const buf = Buffer.alloc(b * per * bytesPer);
  readSync(fd, buf, 0, buf.length, s * per * bytesPer);
  const data =
    dtype === 'uint8'
      ? new Uint8Array(buf.buffer, buf.byteOffset, b * per)
      : new Float32Array(buf.buffer, buf.byteOffset, b * per);
  const input = new ort.Tensor(dtype, data, [b, ...dims]);
  const t0 = process.hrtime.bigint();
  const res = await session.run({ [session.inputNames[0]]: input }, fetches);
  seconds.push(Number(process.hrtime.bigint() - t0) / 1e9);
  for (const name of fetches) {
    const t = res[name];
    writeSync(outs[name], Buffer.from(new Float32Array(t.data).buffer));
  }
}
const spanWall = Number(process.hrtime.bigint() - span0) / 1e9;
const spanCpu = process.cpuUsage(cpu0);
const busy1 = machineBusySeconds();
closeSync(fd);
for (const f of Object.values(outs)) closeSync(f);
writeFileSync(
  `${outPrefix}.timing.json`,
  JSON.stringify({
    batch: BATCH,
    seconds,
    // from the first batch read to the last written
    wall_s: spanWall,
    self_cpu_s: (spanCpu.user + spanCpu.system) / 1e6,
    machine_busy_s: busy0 === null || busy1 === null ? null : busy1 - busy0,
    cpus: os.cpus().length,
  }),
);
