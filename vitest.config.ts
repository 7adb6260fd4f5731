import { defineConfig } from 'vitest/config';

/**
 * One test run for the whole monorepo: unit and integration tests beside the code (`*.test.ts`),
 * cross-service and browser journeys in `tests/`. The global setup starts the Auth emulator once.
 */
export default defineConfig({
  test: {
    include: ['{packages,services,gateway,web,tests}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    globalSetup: ['tests/setup/global.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    teardownTimeout: 30_000,
    // What a test polls for is something a user waits for: give it the time a loaded CI machine needs
    // (Vitest's default is 1 s, which a two-core machine running two browser files misses).
    expect: { poll: { timeout: 15_000, interval: 100 } },
    reporters: process.env.CI ? ['default'] : ['default'],
    env: { NODE_ENV: 'test' },
  },
});
