import type { InferenceSession } from 'onnxruntime-node';
export function needsExactInt8(arch: string, cpuinfo: string | null): boolean;
export function diagnosisSessionOptions(threads?: number): InferenceSession.SessionOptions;
