import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { diagnosisSessionOptions, needsExactInt8 } from './ort-session.mjs';

// one int8 1x1 convolution whose pairs of products overflow an int16 (fixtures/int8-pairs/README.md)
const PROBE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../testing/fixtures/int8-pairs/pairs.onnx',
);

const cpu = (flags: string) =>
  `processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: ${flags}\nbugs\t\t: sysret_ss_attrs\n\nprocessor\t: 1\nflags\t\t: ${flags}\n`;

describe('needsExactInt8', () => {
  it('asks for exact int8 products on x86-64 without VNNI (AVX2, AVX-512 without VNNI)', () => {
    expect(needsExactInt8('x64', cpu('fpu sse2 ssse3 sse4_1 avx avx2 fma'))).toBe(true);
    expect(needsExactInt8('x64', cpu('sse4_1 avx2 avx512f avx512bw avx512vl'))).toBe(true);
  });
  it('leaves the default where the CPU sums int8 pairs in 32 bits (VNNI, AMX)', () => {
    expect(needsExactInt8('x64', cpu('avx2 avx512f avx512bw avx512_vnni'))).toBe(false);
    expect(needsExactInt8('x64', cpu('avx2 avx_vnni'))).toBe(false);
    expect(needsExactInt8('x64', cpu('avx2 avx512_vnni amx_tile amx_int8'))).toBe(false);
  });
  it('does not mistake a flag that only contains the name', () => {
    expect(needsExactInt8('x64', cpu('avx2 avx512_vnnix'))).toBe(true);
  });
  it('is exact when the CPU cannot be read, and does nothing off x86-64', () => {
    expect(needsExactInt8('x64', null)).toBe(true);
    expect(needsExactInt8('x64', 'processor : 0\n')).toBe(true);
    expect(needsExactInt8('arm64', null)).toBe(false);
    expect(needsExactInt8('arm64', cpu('fp asimd'))).toBe(false);
  });
});

describe('diagnosisSessionOptions', () => {
  it('runs on the CPU with the threads asked for, every graph optimisation on', () => {
    const o = diagnosisSessionOptions(3);
    expect(o).toMatchObject({
      executionProviders: ['cpu'],
      intraOpNumThreads: 3,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    expect(diagnosisSessionOptions().intraOpNumThreads).toBe(2);
  });
  it("lets each session's threads sleep after a run, so that the next session has both cores", () => {
    expect(diagnosisSessionOptions().extra).toMatchObject({
      session: { 'intra_op.allow_spinning': '0' },
    });
  });
});

describe('the int8 products on this CPU', () => {
  it('are exact in the sessions the server creates (64, not the 32.5 of clipped pairs)', async () => {
    const session = await ort.InferenceSession.create(PROBE, diagnosisSessionOptions());
    try {
      const input = new ort.Tensor('float32', new Float32Array(2 * 64 * 16).fill(1), [2, 64, 4, 4]);
      const out = (await session.run({ input })).output as ort.Tensor;
      expect(new Set(out.data as Float32Array)).toEqual(new Set([64]));
    } finally {
      await session.release();
    }
  });

  it('are asked for exactly where this CPU needs it', () => {
    let cpuinfo: string | null = null;
    try {
      cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
    } catch {
      // not Linux: unknown
    }
    const extra = diagnosisSessionOptions().extra as
      { session?: Record<string, string> } | undefined;
    expect(extra?.session?.x64quantprecision === '1').toBe(needsExactInt8(process.arch, cpuinfo));
  });
});
