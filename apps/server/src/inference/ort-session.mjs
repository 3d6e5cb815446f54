// onnxruntime-node session options for the diagnosis models, shared by the server
// (apps/server/src/inference/registry.ts) and the ML pipeline's runner (ml/onnx_run.mjs), so that
// `npm run ml:evaluate` measures what the product does. Plain JavaScript: ml/onnx_run.mjs runs
// under node without a TypeScript loader.
import fs from 'node:fs';

/**
 * Whether onnxruntime must be told to multiply the int8 files exactly. On x86-64 without VNNI
 * (AVX2, AVX-512 without VNNI) its default uint8 x int8 kernel adds each pair of products into a
 * saturating 16-bit register (VPMADDUBSW), so the same int8 file answers some photos differently
 * there (ml/LOG.md, "Int8 on CPUs without VNNI"). With `session.x64quantprecision` it turns the
 * weights to uint8 and uses its exact uint8 x uint8 kernel instead (slower). CPUs with VNNI or
 * AMX sum in 32 bits already, and the key does nothing off x86-64.
 * @param {string} arch process.arch
 * @param {string | null} cpuinfo the text of /proc/cpuinfo (null: unknown, e.g. not Linux)
 * @returns {boolean}
 */
export function needsExactInt8(arch, cpuinfo) {
  if (arch !== 'x64') return false;
  if (cpuinfo === null) return true; // unknown: exact is always right, only slower
  const flags = /^flags\s*:(.*)$/m.exec(cpuinfo);
  if (!flags) return true;
  const set = new Set(flags[1].trim().split(/\s+/));
  return !(set.has('avx512_vnni') || set.has('avx_vnni') || set.has('amx_int8'));
}

function readCpuinfo() {
  try {
    return fs.readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return null;
  }
}

/**
 * The options every diagnosis session is created with: 2 intra-op threads unless told, and threads
 * that sleep when their work is done. Each session has its own threads, and by default they spin
 * a while after each run: on two cores the MobileNet's spinning thread then slowed the ResNet50
 * that runs right after it in the ensemble, and the photo decoding between runs
 * (bench/diagnosis, 2026-11-29: the ensemble's one photo p50 about 50 ms spinning, 25 ms not).
 */
export function diagnosisSessionOptions(threads = 2) {
  const session = { 'intra_op.allow_spinning': '0' };
  if (needsExactInt8(process.arch, readCpuinfo())) session.x64quantprecision = '1';
  return {
    executionProviders: ['cpu'],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    extra: { session },
  };
}
