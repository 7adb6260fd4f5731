import { defineConfig } from 'vitest/config';

/**
 * The run tests/data/no-shared-data.test.ts makes of the tests that use the public data (through
 * tests/fixtures), with tests/data/shared-guard.mjs preloaded. No Auth emulator: these tests need none.
 */
export default defineConfig({
  test: {
    include: ['{packages,services,tests}/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    env: { NODE_ENV: 'test' },
  },
});
