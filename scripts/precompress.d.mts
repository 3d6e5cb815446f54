/** Types of precompress.mjs, for the server's tests that build a web folder with it. */
export const COMPRESSIBLE: RegExp;
export function precompress(dir: string): {
  files: number;
  bytes: number;
  brotli: number;
  gzip: number;
};
