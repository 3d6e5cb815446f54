import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'hydraulics',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'node',
    include: ['src/**/*.test.ts'],
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts', 'src/test-helpers.ts', 'src/cli.ts'],
      // Under the repository's ignored /coverage folder.
      reportsDirectory: '../../coverage/hydraulics',
      thresholds: { lines: 95 },
    },
  },
});
