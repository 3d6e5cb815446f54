import { defineConfig } from 'vitest/config';

// One `vitest run` runs every workspace's unit and API tests; Playwright specs live in e2e/.
export default defineConfig({
  test: {
    // Two cores: API suites each start a real server on a real database.
    maxWorkers: 2,
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
  },
});
