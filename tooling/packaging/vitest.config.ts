import { defineConfig } from 'vitest/config';

// The packaging test, its own vitest project (`pnpm test:packaging`, run by `pnpm test` after the build): the
// global setup starts a local registry and publishes the built packages; the two files then run side by side.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    // src/unit/ holds the checks that need no registry; the root project runs them with the other unit tests.
    include: ['src/*.test.ts'],
    globalSetup: ['src/global-setup.ts'],
    testTimeout: 20 * 60_000,
    hookTimeout: 20 * 60_000,
    pool: 'forks',
    maxWorkers: 2,
    expect: { requireAssertions: true },
  },
});
